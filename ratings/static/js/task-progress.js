// The admin's page of a job's run: polls its state every second while it runs (the server tells a lost run from a
// running one), then reloads once so that the page shows what the job wrote or why it failed.
(function () {
  "use strict";
  var page = document.getElementById("task-progress");
  if (!page || page.dataset.running !== "1") return;
  var state = document.getElementById("task-state");
  var step = document.getElementById("task-step");
  var bar = document.getElementById("task-bar");
  var outcome = document.getElementById("task-outcome");
  function poll() {
    fetch(page.dataset.url, { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        state.textContent = data.state_display;
        outcome.textContent = data.summary;
        if (data.total) {
          bar.max = data.total;
          bar.value = data.done;
          step.textContent = (data.step ? "— " + data.step + " " : "") + "(" + data.done + " / " + data.total + ")";
        }
        if (data.running) {
          setTimeout(poll, 1000);
        } else {
          window.location.reload();
        }
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  poll();
})();
