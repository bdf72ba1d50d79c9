// A player's mahjong ratings over time: rating on the left axis, place on the right (1 at the top).
(function () {
  "use strict";
  var canvas = document.getElementById("mahjong-chart");
  var source = document.getElementById("mahjong-chart-data");
  if (!canvas || !source || typeof Chart === "undefined") return;
  var lists = JSON.parse(source.textContent);
  var colours = ["#0d6efd", "#198754", "#d63384", "#fd7e14"];
  var datasets = [];
  lists.forEach(function (list, index) {
    var colour = colours[index % colours.length];
    datasets.push({
      label: list.label + ": " + canvas.dataset.rating,
      data: list.points.map(function (p) { return { x: p.date, y: p.rating }; }),
      borderColor: colour, backgroundColor: colour, yAxisID: "rating", stepped: true, pointRadius: 1
    });
    datasets.push({
      label: list.label + ": " + canvas.dataset.rank,
      data: list.points.map(function (p) { return { x: p.date, y: p.rank }; }),
      borderColor: colour, backgroundColor: colour, borderDash: [4, 4], yAxisID: "rank", stepped: true, pointRadius: 0
    });
  });
  var labels = [];
  lists.forEach(function (list) { list.points.forEach(function (p) { if (labels.indexOf(p.date) < 0) labels.push(p.date); }); });
  labels.sort();
  new Chart(canvas, {
    type: "line",
    data: { labels: labels, datasets: datasets },
    options: {
      maintainAspectRatio: false,
      parsing: true,
      interaction: { mode: "nearest", intersect: false },
      scales: {
        x: { type: "category" },
        rating: { position: "left", title: { display: true, text: canvas.dataset.rating } },
        rank: { position: "right", reverse: true, grid: { drawOnChartArea: false }, title: { display: true, text: canvas.dataset.rank } }
      }
    }
  });
})();
