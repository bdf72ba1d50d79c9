import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation.i18n import current_language
from ratings.models import RatingEntry

NUMBER = {"td": {"class": "text-end text-nowrap"}, "th": {"class": "text-end"}}


class MahjongEntryTable(tables.Table):
    """One list as of one date: rank, name, city, rating, change, tournaments (`rules/mahjong.md`)."""

    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER)
    name = tables.Column(
        verbose_name=_("Player"), accessor="player__last_name", order_by=("player__last_name", "player__first_name")
    )
    city = tables.Column(verbose_name=_("City"), accessor="player__city", default="")
    rating = tables.Column(verbose_name=_("Rating"), attrs=NUMBER)
    delta = tables.Column(verbose_name=_("Change"), attrs=NUMBER, default="")
    events = tables.Column(verbose_name=_("Tournaments"), attrs=NUMBER)

    class Meta:
        model = RatingEntry
        fields = ["rank", "name", "city", "rating", "delta", "events"]
        order_by = ("rank",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "mahjong-list"}

    def render_name(self, record):
        url = reverse("ratings:mahjong:player", args=[record.player_id])
        return format_html('<a href="{}">{}</a>', url, record.player.display_name(current_language()))

    def value_name(self, record):
        return record.player.display_name(current_language())

    def render_rating(self, value):
        return f"{value:.2f}"

    def value_rating(self, value):
        return f"{value:.2f}"

    def render_delta(self, value):
        if value is None:
            return ""
        if value == 0:
            return "0.00"
        css = "text-success" if value > 0 else "text-danger"
        return format_html('<span class="{}">{}</span>', css, f"{value:+.2f}")

    def value_delta(self, value):
        return "" if value is None else f"{value:+.2f}"
