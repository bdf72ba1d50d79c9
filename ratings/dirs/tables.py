import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation import formatting
from federation.i18n import current_language
from federation.tables import FOLD, NAME, NUMBER, NUMBER_FOLD, RATING, NameColumn, PlayerIdColumn, order_by_name
from ratings.engines import dirs

from .models import DirsGame, DirsRating


class DirsLeaderboardTable(tables.Table):
    """The club rating; its rows are written by ``dirs/leaderboard_table.html``."""

    place = tables.Column(verbose_name="#", orderable=False, attrs=NUMBER)
    player_id = PlayerIdColumn()
    name = tables.Column(
        verbose_name=_("Player"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
        attrs=NAME,
    )
    rank = tables.Column(
        verbose_name=_("Kyu/dan"),
        accessor="rating",
        orderable=False,
        empty_values=(),
        attrs={"td": {"class": "text-nowrap"}},
    )
    # Equal ratings in the selector's order (name, then id), so that a page never shows a player twice or drops one
    # at its edge; the API's list (/api/v1/) is in the same order.
    rating = tables.Column(
        verbose_name=_("DIRS"), order_by=("rating", "-player__last_name", "-player_id"), attrs=RATING
    )
    acceleration = tables.Column(verbose_name=_("Acceleration"), attrs=NUMBER_FOLD)
    games = tables.Column(verbose_name=_("Games"), attrs=NUMBER_FOLD)
    club = NameColumn(verbose_name=_("Club"), accessor="club", order_by=("club__name",), default="—", attrs=FOLD)

    class Meta:
        model = DirsRating
        fields = ["place", "player_id", "name", "rank", "rating", "acceleration", "games", "club"]
        sequence = ["place", "player_id", "name", "rating", "rank", "acceleration", "games", "club"]
        order_by = ("-rating",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "dirs-leaderboard"}
        template_name = "dirs/leaderboard_table.html"

    def order_name(self, queryset, is_descending):
        return order_by_name(queryset, is_descending, prefix="player__")

    def value_name(self, record):
        return record.player.display_name(current_language())

    def value_rank(self, record):
        return dirs.rank_of(record.rating).short

    def value_rating(self, value):
        return f"{value:03d}"


class DirsGameTable(tables.Table):
    date = tables.Column(verbose_name=_("Date"), orderable=False, attrs={"td": {"class": "text-nowrap"}})
    opponent = tables.Column(
        verbose_name=_("Opponent"), empty_values=(), orderable=False, attrs={"td": {"class": "name"}}
    )
    colour = tables.Column(verbose_name=_("Colour"), empty_values=(), orderable=False, attrs=FOLD)
    handicap = tables.Column(verbose_name=_("Stones"), orderable=False, attrs=NUMBER_FOLD)
    outcome = tables.Column(verbose_name=_("Result"), empty_values=(), orderable=False)
    change = tables.Column(verbose_name=_("Rating"), empty_values=(), orderable=False, attrs=RATING)
    reason = tables.Column(
        verbose_name=_("Why"), empty_values=(), orderable=False, attrs={"td": {"class": "name small"}}
    )

    class Meta:
        model = DirsGame
        fields = ["date", "opponent", "colour", "handicap", "outcome", "change", "reason"]
        sequence = ["date", "opponent", "change", "outcome", "colour", "handicap", "reason"]
        attrs = {"class": "table table-sm table-striped align-middle", "id": "dirs-games"}

    def __init__(self, *args, player_id: int, **kwargs):
        self.player_id = player_id
        super().__init__(*args, **kwargs)

    def _white(self, record) -> bool:
        return record.white_id == self.player_id

    def render_opponent(self, record):
        other = record.black if self._white(record) else record.white
        return format_html(
            '<a href="{}">{}</a>',
            reverse("dirs:player", args=[other.pk]),
            other.display_name(current_language()),
        )

    def render_date(self, value):
        return formatting.day(value)

    def render_colour(self, record):
        return _("white") if self._white(record) else _("black")

    def render_outcome(self, record):
        won = (record.winner == "white") == self._white(record)
        return _("win") if won else _("loss")

    def render_change(self, record):
        before, after = (
            (record.white_before, record.white_after)
            if self._white(record)
            else (record.black_before, record.black_after)
        )
        if not record.rated:
            return format_html('<span class="text-muted">{} ({})</span>', f"{before:03d}", _("not rated"))
        return f"{before:03d} → {after:03d}"

    def render_reason(self, record):
        lang = current_language()
        # As a player reads it: "->" and "ceil(...)" as an arrow and rounding brackets (federation.formatting).
        text = record.explanation_ru if lang.startswith("ru") else record.explanation_en
        return formatting.plain_explanation(text, lang)
