// Fast result entry: type a board number, then W (white wins), B (black wins), D (draw, where allowed) or F and then
// W/B (a win by forfeit), or X and then L (both lose), W (both win) or F (both lose by forfeit: neither came); or tap
// a result on the board's row. Each board is saved on its own (fetch, CSRF token from
// the form) and its row shows what the server kept or why it refused; nothing is chosen until the director chooses.
// Keys are read by their place on the keyboard (event.code), so a Russian layout types the same letters.
(function () {
  "use strict";
  var form = document.getElementById("entry");
  var input = document.getElementById("entry-input");
  var preview = document.getElementById("entry-preview");
  var status = document.getElementById("entry-status");
  var remaining = document.getElementById("remaining");
  if (!form || !input) return;
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  var draws = form.dataset.draws === "1";
  var digits = "";
  var forfeit = false;
  var special = false;

  function row(number) { return document.getElementById("entry-" + number); }

  function show() {
    input.value = digits + (forfeit ? "F" : "") + (special ? "X" : "");
    document.querySelectorAll("#entry-boards tr.current").forEach(function (tr) { tr.classList.remove("current"); });
    if (!digits) { preview.textContent = ""; return; }
    var tr = row(digits);
    if (!tr) { preview.textContent = form.dataset.noBoard; return; }
    tr.classList.add("current");
    tr.scrollIntoView({ block: "nearest" });
    preview.textContent = tr.dataset.white + " – " + tr.dataset.black + (forfeit ? " (" + form.dataset.forfeit + ")" : "") +
      (special ? " (" + form.dataset.special + ")" : "");
  }

  function clear() { digits = ""; forfeit = false; special = false; show(); }

  function say(text, failed) {
    status.textContent = text;
    status.className = "small" + (failed ? " text-danger" : "");
  }

  function save(number, result) {
    var tr = row(number);
    if (!tr) { say(form.dataset.noBoard, true); return; }
    var body = new URLSearchParams({ board: number, result: result, version: tr.dataset.version });
    tr.classList.remove("refused");
    fetch(form.dataset.url, {
      method: "POST",
      headers: { "X-CSRFToken": csrf, "Content-Type": "application/x-www-form-urlencoded" },
      body: body,
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    }).then(function (answer) {
      var data = answer.data;
      if (!answer.ok) {
        tr.classList.add("refused");
        say(data.error, true);
        return;
      }
      tr.dataset.version = data.version;
      tr.classList.add("saved");
      tr.querySelector(".result").textContent = data.label;
      tr.querySelectorAll("button[data-result]").forEach(function (b) { b.disabled = true; });
      remaining.textContent = data.remaining;
      say(number + ": " + data.label + " — " + form.dataset.saved, false);
      if (data.remaining === 0) {
        status.textContent = form.dataset.done + " ";
        var link = document.createElement("a");
        link.href = form.dataset.standings;
        link.textContent = form.dataset.standingsText;
        status.appendChild(link);
      }
    }).catch(function () {
      tr.classList.add("refused");
      say(form.dataset.failed, true);
    });
  }

  var KEYS = { KeyW: "white", KeyB: "black", KeyD: "draw" };
  var SPECIAL = { KeyL: "both_lose", KeyW: "both_win", KeyF: "double_forfeit" };

  input.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key === "Tab") return;
    var code = event.code;
    event.preventDefault();
    var digit = /^(?:Digit|Numpad)(\d)$/.exec(code);
    if (digit) { if (digits.length < 4) digits += digit[1]; forfeit = false; special = false; show(); return; }
    if (code === "Backspace") {
      if (special) special = false; else if (forfeit) forfeit = false; else digits = digits.slice(0, -1);
      show();
      return;
    }
    if (code === "Escape") { clear(); return; }
    if (code === "KeyX" && digits) { special = !special; forfeit = false; show(); return; }
    if (special) {
      var both = SPECIAL[code];
      if (!both) return;
      var board = digits;
      clear();
      save(board, both);
      return;
    }
    if (code === "KeyF" && digits) { forfeit = !forfeit; show(); return; }
    var result = KEYS[code];
    if (!result || !digits || (result === "draw" && (!draws || forfeit))) return;
    if (forfeit) result += "_forfeit";
    var number = digits;
    clear();
    save(number, result);
  });

  document.getElementById("entry-boards").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-result]");
    if (!button) return;
    save(button.closest("tr").dataset.board, button.dataset.result);
    input.focus();
  });
  form.addEventListener("submit", function (event) { event.preventDefault(); });
})();
