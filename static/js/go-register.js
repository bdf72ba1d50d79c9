// The director's registration form: search members by name as you type (either alphabet) and choose one.
// Without JavaScript the same search works as a plain GET form that renders the same list on the page.
(function () {
  "use strict";
  var input = document.getElementById("member-q");
  var list = document.getElementById("member-results");
  var form = document.getElementById("member-search-form");
  if (!input || !list || !form) return;
  var timer = null;
  var asked = 0;

  function radio(value, id, label, extra, disabled, checked) {
    var div = document.createElement("div");
    div.className = "form-check";
    var box = document.createElement("input");
    box.className = "form-check-input";
    box.type = "radio";
    box.name = "player";
    box.value = value;
    box.id = id;
    box.disabled = disabled;
    box.checked = checked;
    var text = document.createElement("label");
    text.className = "form-check-label";
    text.htmlFor = id;
    text.textContent = label + " ";
    if (extra) {
      var small = document.createElement("span");
      small.className = "text-muted small";
      small.textContent = extra;
      text.appendChild(small);
    }
    if (disabled) {
      var badge = document.createElement("span");
      badge.className = "badge text-bg-secondary ms-1";
      badge.textContent = list.dataset.registered;
      text.appendChild(badge);
    }
    div.appendChild(box);
    div.appendChild(text);
    return div;
  }

  function note(text) {
    var p = document.createElement("p");
    p.className = "small text-muted mb-0";
    p.textContent = text;
    return p;
  }

  function show(data) {
    var legend = list.querySelector("legend");
    list.replaceChildren();
    if (legend) list.appendChild(legend);
    if (!data.query) return;
    list.appendChild(radio("", "member-none", list.dataset.none, "", false, true));
    data.results.forEach(function (m) {
      var parts = [];
      if (m.other_name) parts.push(m.other_name);
      if (m.club) parts.push(m.club);
      if (m.dirs !== null) parts.push("DIRS " + String(m.dirs).padStart(3, "0") + " (" + m.rank + ")");
      list.appendChild(radio(String(m.id), "member-" + m.id, m.name, parts.join(" · "), m.registered, false));
    });
    if (!data.results.length) list.appendChild(note(list.dataset.empty));
    if (data.results.length >= data.limit) list.appendChild(note(list.dataset.more));
  }

  function search() {
    var query = input.value.trim();
    var mine = ++asked;
    if (!query) { show({ query: "", results: [], limit: 0 }); return; }
    fetch(input.dataset.url + "?" + new URLSearchParams({ q: query }).toString(), { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) { if (mine === asked) show(data); });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 200);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    search();
  });
  // A name typed before this script ran (a slow connection) or put back by the browser's Back button: search it now.
  if (input.value.trim() && input.value !== input.defaultValue) search();
})();
