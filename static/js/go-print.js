// The print sheets' "Print" button: the browser's own print dialog (the page's CSS lays it out on A4).
(function () {
  "use strict";
  var button = document.getElementById("print-button");
  if (button) button.addEventListener("click", function () { window.print(); });
})();
