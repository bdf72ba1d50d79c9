// Numbers the way the page's language writes them, as the server does (federation/formatting.py): 837,14 and
// 12 345,50 on a Russian page, 837.14 and 12,345.50 on an English one; grouped from five digits on (1081,02).
// fedNumber(value, places, signed): `places` decimals (or up to -places when negative: 130, 130,5), a sign on a
// change when `signed` (+2,30, -1, 0).
(function () {
  "use strict";
  var language = document.documentElement.lang || "ru";
  var cache = {};
  function formatter(places, signed) {
    var key = places + (signed ? "s" : "");
    if (!cache[key]) {
      cache[key] = new Intl.NumberFormat(language, {
        minimumFractionDigits: places < 0 ? 0 : places,
        maximumFractionDigits: Math.abs(places),
        useGrouping: "min2",
        signDisplay: signed ? "exceptZero" : "auto",
      });
    }
    return cache[key];
  }
  window.fedNumber = function (value, places, signed) {
    if (value === null || value === undefined || value === "") return "";
    var number = Number(value);
    if (!isFinite(number)) return String(value);
    return formatter(places || 0, !!signed).format(number);
  };
})();
