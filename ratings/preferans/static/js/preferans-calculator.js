/* The preferans calculator: asks the site for the cells (the engine's own formula) as the visitor types. */
(function () {
  "use strict";
  var form = document.getElementById("calculator");
  if (!form) { return; }
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  var grid = document.getElementById("calc-grid");
  var errorBox = document.getElementById("calc-error");
  var timer = null;
  var latest = 0;

  function format(value) { return window.fedNumber(value, 2, true); }  // static/js/numbers.js: +2,30 in Russian

  function cell(tag, text, className) {
    var el = document.createElement(tag);
    el.textContent = text;
    if (className) { el.className = className; }
    return el;
  }

  function draw(data) {
    var headRow = grid.tHead.rows[0];
    while (headRow.cells.length > 1) { headRow.deleteCell(1); }
    data.tables.forEach(function (rt) { headRow.appendChild(cell("th", window.fedNumber(rt, -2))); });
    var body = grid.tBodies[0];
    body.textContent = "";
    data.cells.forEach(function (values, i) {
      var row = document.createElement("tr");
      row.appendChild(cell("th", window.fedNumber(data.ratings[i], -2)));
      values.forEach(function (value) {
        row.appendChild(cell("td", format(value), value > 0 ? "text-success" : (value < 0 ? "text-danger" : "")));
      });
      body.appendChild(row);
    });
  }

  function update() {
    var params = new URLSearchParams(new FormData(form));
    var request = ++latest;
    fetch(form.dataset.url + "?" + params.toString(), {headers: {"Accept": "application/json"}})
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (request !== latest) { return; }
        if (data.errors) {
          errorBox.textContent = data.errors.map(function (e) { return e.message; }).join(" ");
          errorBox.classList.remove("d-none");
          return;
        }
        errorBox.classList.add("d-none");
        draw(data);
      });
  }

  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(update, 150);
  });
  update();
})();
