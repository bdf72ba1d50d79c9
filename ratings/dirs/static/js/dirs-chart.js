// A player's DIRS rating after each game (Chart.js 4, served locally).
(function () {
  "use strict";
  var canvas = document.getElementById("dirs-chart");
  var data = document.getElementById("dirs-points");
  if (!canvas || !data || typeof Chart === "undefined") return;
  var points = JSON.parse(data.textContent);
  new Chart(canvas, {
    type: "line",
    data: {
      labels: points.map(function (p) { return p.date || "0"; }),
      datasets: [{ label: canvas.dataset.label, data: points.map(function (p) { return p.rating; }), stepped: false, tension: 0 }]
    },
    options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { display: false } } }
  });
})();
