// A player's preferans rating after each game; the data comes from json_script "preferans-chart-data".
(function () {
  "use strict";
  var canvas = document.getElementById("preferans-chart");
  var source = document.getElementById("preferans-chart-data");
  if (!canvas || !source || typeof Chart === "undefined") return;
  var data = JSON.parse(source.textContent);
  new Chart(canvas, {
    type: "line",
    data: {labels: data.labels, datasets: [{label: data.label, data: data.values, tension: 0.1, pointRadius: 2}]},
    options: {maintainAspectRatio: false, plugins: {legend: {display: false}}}
  });
})();
