from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MahjongConfig(AppConfig):
    name = "ratings.mahjong"
    label = "mahjong"
    verbose_name = _("Riichi mahjong")
