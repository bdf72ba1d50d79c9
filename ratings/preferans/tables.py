from decimal import Decimal

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from federation import formatting
from federation.i18n import current_language
from federation.table_rows import EMPTY, link
from federation.tables import (
    FOLD,
    NAME,
    NUMBER,
    NUMBER_FOLD,
    PLAYER_NAME_FIELDS,
    RATING,
    PlayerIdColumn,
    columns_copied_once,
    empty_or,
    id_urls,
    order_by_name,
    row_name,
    url_with_id,
)
from ratings.preferans.models import PreferansRating


class RatingColumn(tables.Column):
    def render(self, value):
        return formatting.rating(value, 2)

    def value(self, value):
        return Decimal(str(value)).quantize(Decimal("0.01"))


@columns_copied_once
class LeaderboardTable(tables.Table):
    rank = tables.Column(verbose_name="#", empty_values=(), orderable=False, attrs=NUMBER)
    player_id = PlayerIdColumn()
    player = tables.Column(
        verbose_name=_("Player"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
        linkify=lambda record: url_with_id("federation:player_detail", record.player_id),
        attrs=NAME,
    )
    city = tables.Column(verbose_name=_("City"), accessor="player__city", attrs=FOLD)
    club = tables.Column(verbose_name=_("Club"), accessor="player__club__name", default="", attrs=FOLD)
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

    #: A page of rows read as values and written by ``lean_cells`` (``federation.table_rows``).
    lean_fields = ("rating", "max_rating", "deals", "player_id", *PLAYER_NAME_FIELDS, "player__city")
    lean_fields += ("player__club__name",)

    _lean = None

    def lean_cells(self, row: dict) -> dict:
        """Each cell as the ``render_*`` methods below write it, from a row of ``lean_fields``."""
        if self._lean is None:  # the page's language, player URL and rating writer (RatingColumn.render), once
            self._lean = (current_language(), id_urls("federation:player_detail"), formatting.rating_writer(2))
        language, player_url, rating = self._lean
        last_name = row["player__last_name"]
        return {
            "rank": self.render_rank(row),
            "player": EMPTY if last_name in (None, "") else link(player_url(row["player_id"]), row_name(row, language)),
            "city": empty_or(row["player__city"]),
            "club": empty_or(row["player__club__name"]),
            "rating": empty_or(row["rating"], rating),
            "max_rating": empty_or(row["max_rating"], rating),
            "deals": empty_or(row["deals"]),
        }

    def render_rank(self, record):
        # The page's first place, then one more a row (``page is not None``: ``if page`` would read the page's rows).
        page = getattr(self, "page", None)
        self._rank_counter = getattr(self, "_rank_counter", page.start_index() - 1 if page is not None else 0)
        self._rank_counter += 1
        return self._rank_counter

    def value_rank(self, record):
        self._export_counter = getattr(self, "_export_counter", 0) + 1
        return self._export_counter

    def order_player(self, queryset, is_descending):
        return order_by_name(queryset, is_descending, prefix="player__")

    def render_player(self, record):
        return record.player.display_name(current_language())

    def value_player(self, record):
        return record.player.display_name(current_language())
