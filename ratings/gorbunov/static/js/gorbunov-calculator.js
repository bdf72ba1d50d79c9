// The Gorbunov calculator: asks the engine (calculator/api/) as you type and shows the change for every place.
// The formula lives once, in ratings/engines/gorbunov.py; this file only sends the inputs and draws the table.
(function () {
  "use strict";
  var form = document.getElementById("gorbunov-calculator");
  if (!form) return;
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  var api = form.dataset.api;
  var body = document.querySelector("#calc-table tbody");
  var error = document.getElementById("calc-error");
  var note = document.getElementById("calc-note");
  var timer = null;
  var serial = 0;

  function field(name) { return form.elements[name]; }

  function query(params) {
    return Object.keys(params).map(function (k) {
      return encodeURIComponent(k) + "=" + encodeURIComponent(params[k]);
    }).join("&");
  }

  function draw(data) {
    body.textContent = "";
    note.textContent = data.note || ("U = " + data.u + ", Rt = " + window.fedNumber(data.rt, -4) + ", K = " +
      (data.k_effective || data.k));  // static/js/numbers.js: Rt = 130,5 on a Russian page
    (data.places || []).forEach(function (row) {
      var tr = document.createElement("tr");
      [row.place, window.fedNumber(row.delta, 0, true), window.fedNumber(row.after, 0), row.explanation].forEach(function (value, i) {
        var td = document.createElement("td");
        td.textContent = value;
        if (i < 3) td.className = "text-end";
        if (i === 3) td.className = "small";
        tr.appendChild(td);
      });
      tr.dataset.place = row.place;
      tr.dataset.delta = row.delta;
      body.appendChild(tr);
    });
  }

  function compute() {
    var mine = ++serial;
    var params = {list: field("list").value, u: field("u").value, rt: field("rt").value, k: field("k").value,
                  rating: field("rating").value, format: field("format").value};
    fetch(api + "?" + query(params), {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (mine !== serial) return;  // a newer request is on its way
        if (data.error) { error.textContent = data.error; body.textContent = ""; return; }
        error.textContent = "";
        draw(data);
      })
      .catch(function (e) { error.textContent = String(e); });
  }

  function later() { clearTimeout(timer); timer = setTimeout(compute, 150); }

  function pickTournament() {
    var id = field("tournament").value;
    if (!id) { later(); return; }
    fetch(api + "?" + query({list: field("list").value, tournament: id}))
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (data.error) { error.textContent = data.error; return; }
        field("u").value = data.u;
        field("rt").value = data.rt;
        field("k").value = data.k;
        field("format").value = data.format || "";
        compute();
      });
  }

  form.addEventListener("input", function (event) {
    if (event.target.name === "tournament") return;
    later();
  });
  field("tournament").addEventListener("change", pickTournament);
  field("list").addEventListener("change", function () { if (field("tournament").value) pickTournament(); });
  compute();
})();
