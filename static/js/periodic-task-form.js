// django-celery-beat's periodic task form: the crontab's reading in words under the field, as its inline script did.
(function () {
  "use strict";
  var script = document.getElementById("periodic-task-overrides");
  var source = document.getElementById("readable-crontabs");
  if (!script || !source || typeof django === "undefined") return;
  var $ = django.jQuery;
  var readable = JSON.parse(source.textContent);
  var help = script.dataset.crontabHelp || "";
  $(".field-crontab_translation").hide();
  $(".field-crontab").change(function () {
    var box = $(".field-crontab .help");
    box.text(help);
    box.append($("<br>"), document.createTextNode("Translation: " + (readable[$("#id_crontab").val()] || "")));
  });
})();
