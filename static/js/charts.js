// Every rating chart of the site on a time axis (Chart.js 4 with the date-fns adapter, both served locally).
// A <canvas class="fed-chart" data-source="ID"> reads its data from the json_script element ID (federation/charts.py):
// series of {x: "YYYY-MM-DD", y}, events (tournaments) marked as triangles on the time axis and named in the legend;
// a chart with "reverse" (places) has 1 at the top; dates and numbers are written in the page's language (Intl), and
// on a phone the axes keep few ticks.
(function () {
  "use strict";
  if (typeof Chart === "undefined" || window.fedChartsDrawn) return;
  window.fedChartsDrawn = true;
  var lang = document.documentElement.lang || "ru";
  var colours = ["#1f4e79", "#198754", "#d63384", "#fd7e14", "#6f42c1", "#0dcaf0"];
  var day = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", year: "numeric" });
  var month = new Intl.DateTimeFormat(lang, { month: "short", year: "numeric" });
  var number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  var narrow = window.matchMedia("(max-width: 575.98px)").matches;

  function draw(canvas) {
    var source = document.getElementById(canvas.dataset.source);
    if (!source) return;
    var chart = JSON.parse(source.textContent);
    var datasets = [];
    var ratingValues = [];
    chart.series.forEach(function (s, i) {
      var colour = colours[Math.floor(i / (chart.rank ? 1 : 1)) % colours.length];
      if (s.axis === "rank") colour = datasets.length ? datasets[datasets.length - 1].borderColor : colour;
      else s.points.forEach(function (p) { ratingValues.push(p.y); });
      datasets.push({
        label: s.label, data: s.points, borderColor: colour, backgroundColor: colour,
        yAxisID: s.axis === "rank" ? "rank" : "rating", stepped: s.stepped ? "after" : false,
        borderDash: s.axis === "rank" ? [4, 4] : [], pointRadius: s.points.length > 60 ? 0 : 2, borderWidth: 2, tension: 0
      });
    });
    if (chart.events && chart.events.length && ratingValues.length) {
      var bottom = Math.min.apply(null, ratingValues);
      datasets.push({
        type: "scatter", label: canvas.dataset.events || "", yAxisID: "rating", pointStyle: "triangle",
        pointRadius: 5, borderColor: "#c8102e", backgroundColor: "#c8102e",
        data: chart.events.map(function (e) { return { x: e.x, y: bottom, name: e.label }; })
      });
    }
    var scales = {
      x: {
        type: "time", time: { minUnit: "day" },
        ticks: { maxTicksLimit: narrow ? 4 : 8, maxRotation: 0, callback: function (value) { return month.format(new Date(value)); } }
      },
      rating: {
        position: "left", reverse: !!chart.reverse, title: { display: !!chart.rating && !narrow, text: chart.rating },
        ticks: {
          maxTicksLimit: narrow ? 5 : 8, precision: chart.reverse ? 0 : undefined,
          callback: function (value) { return number.format(value); }
        }
      }
    };
    if (chart.series.some(function (s) { return s.axis === "rank"; })) {
      scales.rank = {
        position: "right", reverse: true, grid: { drawOnChartArea: false },
        title: { display: !!chart.rank && !narrow, text: chart.rank }, ticks: { precision: 0, maxTicksLimit: 5 }
      };
    }
    new Chart(canvas, {
      type: "line",
      data: { datasets: datasets },
      options: {
        maintainAspectRatio: false, animation: false, parsing: true, normalized: true,
        interaction: { mode: "nearest", intersect: false },
        scales: scales,
        plugins: {
          legend: { display: datasets.length > 1, labels: { boxWidth: 12, usePointStyle: datasets.length > chart.series.length } },
          tooltip: {
            callbacks: {
              title: function (items) { return items.length ? day.format(new Date(items[0].parsed.x)) : ""; },
              label: function (item) {
                if (item.raw && item.raw.name) return item.raw.name;
                return item.dataset.label + ": " + number.format(item.parsed.y);
              }
            }
          }
        }
      }
    });
  }

  document.querySelectorAll("canvas.fed-chart").forEach(draw);
})();
