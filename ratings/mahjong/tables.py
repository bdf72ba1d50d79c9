import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from federation.i18n import current_language
from federation.tables import (
    FOLD,
    NAME,
    NUMBER,
    NUMBER_FOLD,
    RATING,
    CityColumn,
    PlayerIdColumn,
    order_by_name,
)
from ratings.models import RatingEntry


class MahjongEntryTable(tables.Table):
    """One list as of one date: rank, name, city, rating, change, tournaments (`rules/mahjong.md`). The page's rows
    are written by ``mahjong/_entries_table.html``; the ``value_*`` methods give the downloads' cells."""

    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER)
    player_id = PlayerIdColumn()
    name = tables.Column(
        verbose_name=_("Player"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
        attrs=NAME,
    )
    city = CityColumn(verbose_name=_("City"), accessor="player__city", default="", attrs=FOLD)
    # Equal ratings in the order of their stored ranks, so that a page is the same on every visit.
    rating = tables.Column(verbose_name=_("Rating"), attrs=RATING, order_by=("rating", "-rank"))
    delta = tables.Column(verbose_name=_("Change"), attrs=NUMBER, default="")
    events = tables.Column(verbose_name=_("Tournaments"), attrs=NUMBER_FOLD)

    class Meta:
        model = RatingEntry
        fields = ["rank", "player_id", "name", "city", "rating", "delta", "events"]
        # Place, player, rating first (phone-first): the city follows the numbers and folds away on a phone.
        sequence = ["rank", "player_id", "name", "rating", "delta", "events", "city"]
        order_by = ("rank",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "mahjong-list"}
        template_name = "mahjong/_entries_table.html"

    def order_name(self, queryset, is_descending):
        if isinstance(queryset, list):  # an older date's rows, ranked in Python (``selectors.rows_of``)
            language = current_language()
            queryset.sort(key=lambda row: row.player.display_name(language), reverse=is_descending)
            return queryset, True
        return order_by_name(queryset, is_descending, prefix="player__")

    def value_name(self, record):
        return record.player.display_name(current_language())

    def value_rating(self, value):
        return round(value, 2)

    def value_delta(self, value):
        return None if value is None else round(value, 2)
