// A player's Gorbunov ratings over time, one chart per list; the data comes from json_script beside each canvas.
(function () {
  "use strict";
  if (typeof Chart === "undefined") return;
  document.querySelectorAll(".gorbunov-rating canvas").forEach(function (canvas) {
    var source = document.getElementById(canvas.id + "-data");
    if (!source) return;
    var data = JSON.parse(source.textContent);
    new Chart(canvas, {
      type: "line",
      data: {labels: data.labels, datasets: [{label: data.label, data: data.values, stepped: true, pointRadius: 2}]},
      options: {maintainAspectRatio: false, animation: false, plugins: {legend: {display: false}}}
    });
  });
})();
