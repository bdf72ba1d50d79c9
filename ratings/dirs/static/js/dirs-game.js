// The club game form proposes the handicap DIRS prescribes for the two players' ratings ("2 stones, no komi").
(function () {
  "use strict";
  var form = document.getElementById("dirs-game-form");
  var note = document.getElementById("prescribed");
  var ratings = JSON.parse(document.getElementById("dirs-ratings").textContent);
  if (!form || !note) return;
  function update() {
    var w = ratings[form.white.value], b = ratings[form.black.value];
    if (w === undefined || b === undefined) return;
    var params = new URLSearchParams({ a: w, b: b });
    fetch(form.dataset.url + "?" + params.toString())
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (d.errors) return;
        note.textContent = d.rank_a + " (" + w + ") – " + d.rank_b + " (" + b + "): " + d.text;
        if (d.pairable) { form.handicap.value = d.stones; form.komi.value = d.komi; }
      });
  }
  form.white.addEventListener("change", update);
  form.black.addEventListener("change", update);
  update();
})();
