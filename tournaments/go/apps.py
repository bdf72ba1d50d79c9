from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GoConfig(AppConfig):
    name = "tournaments.go"
    label = "go"
    verbose_name = _("Go")
