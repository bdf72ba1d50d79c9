// The mahjong calculator: asks the JSON endpoint as the visitor types and redraws the table of places.
(function () {
  "use strict";
  var form = document.getElementById("mahjong-calculator");
  if (!form) return;
  var body = document.querySelector("#calc-places tbody");
  var error = document.getElementById("calc-error");
  var summary = document.getElementById("calc-summary");
  var timer = null;
  var latest = 0;

  function fixed(value) { return window.fedNumber(value, 2); }  // static/js/numbers.js: 2,40 on a Russian page

  function cell(row, text) {
    var td = row.insertCell();
    td.className = "text-end";
    td.textContent = text;
  }

  function draw(data) {
    error.classList.add("d-none");
    summary.textContent = summary.dataset.template
      .replace("{kp}", fixed(data.k_players)).replace("{kh}", fixed(data.k_hanchans)).replace("{w}", fixed(data.w));
    body.textContent = "";
    data.places.forEach(function (place) {
      var row = body.insertRow();
      cell(row, place.place);
      cell(row, place.hanchans);
      cell(row, fixed(place.w));
      cell(row, fixed(place.r));
      cell(row, window.fedNumber(place.delta, 2, true));
    });
  }

  function update() {
    var query = new URLSearchParams(new FormData(form));
    var ticket = ++latest;
    history.replaceState(null, "", "?" + query.toString());
    fetch(form.dataset.url + "?" + query.toString(), { headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (ticket !== latest) return;
        if (data.error) {
          error.textContent = data.error;
          error.classList.remove("d-none");
          return;
        }
        draw(data);
      });
  }

  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(update, 200);
  });
  form.addEventListener("submit", function (event) { event.preventDefault(); update(); });
  update();
})();
