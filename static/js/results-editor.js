// The results editor's grid from the keyboard: Enter goes down the column (a new row's place is the one above
// plus one), Ctrl+Enter saves the page. Select2 (the player cell) keeps its own keys while its list is open.
(function () {
  "use strict";
  var grid = document.getElementById("results-grid");
  var form = document.getElementById("results-form");
  if (!grid || !form) {
    return;
  }
  function cellOf(input) {
    var td = input.closest("td");
    return td ? Array.prototype.indexOf.call(td.parentNode.children, td) : -1;
  }
  grid.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key !== "Enter" || target.tagName !== "INPUT") {
      return;
    }
    event.preventDefault();
    if (event.ctrlKey || event.metaKey) {
      form.requestSubmit();
      return;
    }
    var row = target.closest("tr");
    var next = row && row.nextElementSibling;
    if (!next) {
      return;
    }
    var cell = next.children[cellOf(target)];
    var input = cell && cell.querySelector("input:not([type=hidden])");
    if (!input) {
      return;
    }
    if (input.classList.contains("results-place") && !input.value && target.classList.contains("results-place")) {
      var above = parseInt(target.value, 10);
      if (!isNaN(above)) {
        input.value = String(above + 1);
      }
    }
    input.focus();
    if (input.select) {
      input.select();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (
      !event.defaultPrevented &&
      event.key === "Enter" &&
      (event.ctrlKey || event.metaKey) &&
      form.contains(document.activeElement)
    ) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
})();
