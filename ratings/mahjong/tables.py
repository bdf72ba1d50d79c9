import django_tables2 as tables
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from federation import formatting
from federation.i18n import current_language
from federation.table_rows import EMPTY, conditional_escape, link
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
from ratings.models import RatingEntry


@columns_copied_once
class MahjongEntryTable(tables.Table):
    """One list as of one date: rank, name, city, rating, change, tournaments (`rules/mahjong.md`)."""

    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER)
    player_id = PlayerIdColumn()
    name = tables.Column(
        verbose_name=_("Player"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
        attrs=NAME,
    )
    city = tables.Column(verbose_name=_("City"), accessor="player__city", default="", attrs=FOLD)
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

    #: A page of rows read as values and written by ``lean_cells`` (``federation.table_rows``).
    lean_fields = ("rank", "rating", "delta", "events", "player_id", *PLAYER_NAME_FIELDS, "player__city")

    _lean = None

    def lean_cells(self, row: dict) -> dict:
        """Each cell as the ``render_*`` methods below write it, from a row of ``lean_fields``."""
        if self._lean is None:  # the page's language, player URL and number writers, once per table
            language = current_language()
            numbers = (formatting.number_html(2, language), formatting.number_html(2, language, signed=True))
            self._lean = (language, id_urls("ratings:mahjong:player"), *numbers)
        language, player_url, rating, signed = self._lean
        last_name, delta = row["player__last_name"], row["delta"]
        if delta is None or delta == "":
            change = EMPTY
        elif delta == 0:
            change = signed(0)
        else:  # render_delta's span, the change written as formatting.delta writes it
            css = "text-success" if delta > 0 else "text-danger"
            change = SafeString(f'<span class="{css}">{signed(delta)}</span>')
        return {
            "rank": empty_or(row["rank"]),
            "name": EMPTY if last_name in (None, "") else link(player_url(row["player_id"]), row_name(row, language)),
            "city": empty_or(row["player__city"]),
            "rating": empty_or(row["rating"], rating),
            "delta": change,
            "events": empty_or(row["events"]),
        }

    def order_name(self, queryset, is_descending):
        return order_by_name(queryset, is_descending, prefix="player__")

    @staticmethod
    def _name_link(player_id: int, name: str):
        return link(url_with_id("ratings:mahjong:player", player_id), name)

    def render_name(self, record):
        return self._name_link(record.player_id, record.player.display_name(current_language()))

    def value_name(self, record):
        return record.player.display_name(current_language())

    def render_rating(self, value):
        return formatting.rating(value, 2)

    def value_rating(self, value):
        return round(value, 2)

    def render_delta(self, value):
        if value is None:
            return ""
        if value == 0:
            return formatting.delta(0, 2)
        css = "text-success" if value > 0 else "text-danger"
        return SafeString(f'<span class="{css}">{conditional_escape(formatting.delta(value, 2))}</span>')

    def value_delta(self, value):
        return None if value is None else round(value, 2)
