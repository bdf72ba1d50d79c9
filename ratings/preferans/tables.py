from decimal import Decimal

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
    NameColumn,
    PlayerIdColumn,
    order_by_name,
)
from ratings.preferans.models import PreferansRating


class RatingColumn(tables.Column):
    def value(self, value):
        return Decimal(str(value)).quantize(Decimal("0.01"))


class LeaderboardTable(tables.Table):
    """A league's leaderboard; its rows are written by ``preferans/leaderboard_table.html``."""

    rank = tables.Column(verbose_name="#", empty_values=(), orderable=False, attrs=NUMBER)
    player_id = PlayerIdColumn()
    player = tables.Column(
        verbose_name=_("Player"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
        attrs=NAME,
    )
    city = CityColumn(verbose_name=_("City"), accessor="player__city", attrs=FOLD)
    club = NameColumn(
        verbose_name=_("Club"), accessor="player__club", order_by=("player__club__name",), default="", attrs=FOLD
    )
    rating = RatingColumn(verbose_name=_("Rating"), attrs=RATING)
    max_rating = RatingColumn(verbose_name=_("Highest rating"), attrs=NUMBER_FOLD)
    deals = tables.Column(verbose_name=_("Deals"), attrs=NUMBER_FOLD)

    class Meta:
        model = PreferansRating
        fields = ["rank", "player_id", "player", "city", "club", "rating", "max_rating", "deals"]
        # Place, player, rating first (phone-first): the rest folds away below 768 px.
        sequence = ["rank", "player_id", "player", "rating", "max_rating", "deals", "city", "club"]
        order_by = ("-rating",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "leaderboard"}
        template_name = "preferans/leaderboard_table.html"

    def value_rank(self, record):
        self._export_counter = getattr(self, "_export_counter", 0) + 1
        return self._export_counter

    def order_player(self, queryset, is_descending):
        return order_by_name(queryset, is_descending, prefix="player__")

    def value_player(self, record):
        return record.player.display_name(current_language())
