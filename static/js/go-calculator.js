// The handicap calculator: asks the JSON endpoint (the engines' own rules) as you type.
(function () {
  "use strict";
  var form = document.getElementById("calculator");
  var out = document.getElementById("calc-result");
  if (!form || !out) return;
  var timer = null;
  function update() {
    var scale = form.scale.value;
    document.getElementById("calc-half-wrap").hidden = scale !== "tournament";
    var params = new URLSearchParams({ scale: scale, a: form.a.value, b: form.b.value });
    if (form.half_stone.checked) params.set("half_stone", "on");
    fetch(form.dataset.url + "?" + params.toString(), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (d.errors) { out.textContent = Object.keys(d.errors).map(function (k) { return k + ": " + d.errors[k].join(" "); }).join("; "); return; }
        var who = d.black === "a" ? out.dataset.blackA : d.black === "b" ? out.dataset.blackB : out.dataset.either;
        // The levels named, not a bare "(32 / 26)": a level is the start points of the self-handicap tournament.
        var levels = d.scale === "tournament" ? " (" + out.dataset.levels
          .replace("{a}", window.fedNumber(d.level_a, 0)).replace("{b}", window.fedNumber(d.level_b, 0)) + ")" : "";
        out.textContent = d.rank_a + " – " + d.rank_b + levels + ": " + d.text + "; " + who;
      });
  }
  form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(update, 150); });
  form.addEventListener("submit", function (e) { e.preventDefault(); update(); });
  update();
})();
