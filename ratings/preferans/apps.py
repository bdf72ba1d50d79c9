from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PreferansConfig(AppConfig):
    name = "ratings.preferans"
    label = "preferans"
    verbose_name = _("Preferans")
