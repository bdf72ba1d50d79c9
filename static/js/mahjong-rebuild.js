// The admin's rebuild progress: polls the task's state every second until it succeeds or fails.
(function () {
  "use strict";
  var state = document.getElementById("rebuild-state");
  var bar = document.getElementById("rebuild-progress");
  if (!state || !bar) return;
  function poll() {
    fetch(state.dataset.url, { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (data.total) { bar.max = data.total; bar.value = data.done; state.textContent = data.done + " / " + data.total; }
        if (data.state === "SUCCESS") {
          bar.value = bar.max;
          state.textContent = state.dataset.done + " " + JSON.stringify(data.written);
        } else if (data.state === "FAILURE") {
          state.textContent = state.dataset.failed + " " + data.error;
        } else {
          setTimeout(poll, 1000);
        }
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  poll();
})();
