// The results editor's grid from the keyboard: Enter goes down the column (a new row's place is the one above
// plus one), Ctrl+Enter saves the page. Select2 (the player cell) keeps its own keys while its list is open.
//
// Loaded in the head without `defer` and listening on the document, so it holds from the first input the browser
// shows: on a long grid over a slow connection an organiser can start typing before the page has finished loading,
// and an Enter there must move down the column, not send a half-filled page.
(function () {
  "use strict";
  function cellOf(input) {
    var td = input.closest("td");
    return td ? Array.prototype.indexOf.call(td.parentNode.children, td) : -1;
  }
  function down(target) {
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
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.defaultPrevented) {
      return;
    }
    var form = document.getElementById("results-form");
    var target = event.target;
    if (!form || !(target instanceof Element) || !form.contains(target)) {
      return;
    }
    var inGrid = target.tagName === "INPUT" && target.closest("#results-grid");
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      form.requestSubmit();
    } else if (inGrid) {
      event.preventDefault();
      down(target);
    }
  });
})();
