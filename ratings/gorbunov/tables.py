from collections.abc import Sequence
from types import SimpleNamespace

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableData

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
from ratings.models import RatingEntry


@columns_copied_once
class ListTable(tables.Table):
    """One Gorbunov list as of a week. ``view`` (a ``selectors.ListView``) gives ranks and this week's changes."""

    rank = tables.Column(verbose_name=_("Rank"), order_by=("-rating", "player_id"), attrs=NUMBER)
    player_id = PlayerIdColumn()
    name = tables.Column(
        verbose_name=_("Player"),
        accessor="player__last_name",
        order_by=("player__last_name", "player__first_name"),
        linkify=lambda record: url_with_id("federation:player_detail", record.player_id),
        attrs=NAME,
    )
    city = tables.Column(verbose_name=_("City"), accessor="player__city", attrs=FOLD)
    club = tables.Column(
        verbose_name=_("Club"), accessor="player__club__name", order_by=("player__club__name",), default="", attrs=FOLD
    )
    rating = tables.Column(verbose_name=_("Rating"), attrs=RATING)
    delta = tables.Column(verbose_name=_("Change"), orderable=False, empty_values=(), attrs=NUMBER)
    events = tables.Column(verbose_name=_("Tournaments"), attrs=NUMBER_FOLD)

    class Meta:
        model = RatingEntry
        fields = ["rank", "player_id", "name", "city", "club", "rating", "delta", "events"]
        # Place, player, rating first (phone-first): the rest folds away below 768 px.
        sequence = ["rank", "player_id", "name", "rating", "delta", "events", "city", "club"]
        order_by = ("rank",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "gorbunov-list"}

    #: A page of rows read as values and written by ``lean_cells`` (``federation.table_rows``).
    lean_fields = ("rank", "rating", "delta", "events", "snapshot_id", "player_id", *PLAYER_NAME_FIELDS)
    lean_fields += ("player__city", "player__club__name")

    def __init__(self, *args, view, **kwargs):
        self.view = view
        self._lean = None
        super().__init__(*args, **kwargs)

    def lean_cells(self, row: dict) -> dict:
        """Each cell as the ``render_*`` methods below write it, from a row of ``lean_fields``: the rank as
        ``ListView.rank`` gives it, the change as ``ListView.delta`` (none this week: 0; no change stored: "new"),
        the numbers as ``formatting.rating`` / ``delta`` write them (``formatting.number_html``)."""
        if self._lean is None:  # the page's language, player URL and number writers, once per table
            language = current_language()
            whole, signed = formatting.number_html(0, language), formatting.number_html(0, language, signed=True)
            self._lean = (language, id_urls("federation:player_detail"), whole, signed, self.view.snapshot.pk)
        language, player_url, whole, signed, snapshot_id = self._lean
        rank, rating, delta = row["rank"], row["rating"], row["delta"]
        if rank is not None and not self.view.newest:
            entry = SimpleNamespace(rank=rank, rating=rating)
            if "shown_rank" in row:  # an older week read a page at a time (PastWeekSlice)
                entry.shown_rank = row["shown_rank"]
            rank = self.view.rank(entry)
        if row["snapshot_id"] != snapshot_id:  # an older week's entry: the player did not move this week
            delta = 0
        last_name = row["player__last_name"]
        return {
            "rank": EMPTY if rank is None else rank,
            "name": EMPTY if last_name in (None, "") else link(player_url(row["player_id"]), row_name(row, language)),
            "rating": EMPTY if rating is None or rating == "" else whole(rating),
            "delta": _("new") if delta is None else signed(delta),
            "events": empty_or(row["events"]),
            "city": empty_or(row["player__city"]),
            "club": empty_or(row["player__club__name"]),
        }

    def order_rank(self, queryset, is_descending):
        # The newest list has its ranks stored (and indexed); an older week ranks by rating.
        keys = ("rank", "player_id") if self.view.newest else ("-rating", "player_id")
        if is_descending:
            keys = ("-rank", "-player_id") if self.view.newest else ("rating", "-player_id")
        return queryset.order_by(*keys), True

    def render_rank(self, record):
        return self.view.rank(record)

    def value_rank(self, record):
        return self.view.rank(record)

    def order_name(self, queryset, is_descending):
        return order_by_name(queryset, is_descending, prefix="player__")

    def render_name(self, record):
        return record.player.display_name(current_language())

    def value_name(self, record):
        return record.player.display_name(current_language())

    def render_rating(self, value):
        return formatting.rating(value, 0)

    def value_rating(self, value):
        return int(value)

    def value_delta(self, record):
        delta = self.view.delta(record)
        return None if delta is None else int(delta)

    def render_delta(self, record):
        delta = self.view.delta(record)
        if delta is None:
            return _("new")
        return formatting.delta(delta, 0)


class PastWeekRows(TableData):
    """An older week's list in rank order for the table, read a page at a time (``selectors.past_week_page``):
    only for the default order; any other sort, a filter or a download reads ``ListView.entries``."""

    def __init__(self, *, snapshot, count: int, weeks: list[int] | None = None):
        super().__init__(data=None)
        self.snapshot = snapshot
        self.count = count
        self.weeks = weeks  # ``selectors.weeks_up_to(snapshot)``, when the view read it

    @property
    def model(self):
        return RatingEntry

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, key):
        from ratings.gorbunov.selectors import past_week_page

        if isinstance(key, slice):
            start, stop, _step = key.indices(self.count)
            return PastWeekSlice(self.snapshot, start, max(stop - start, 0), weeks=self.weeks)
        return past_week_page(snapshot=self.snapshot, offset=key, limit=1, weeks=self.weeks)[0]

    def __iter__(self):
        return iter(self[0 : self.count])

    def order_by(self, aliases):
        if tuple(aliases) not in ((), ("rank",)):
            raise ValueError(f"an older week is read in rank order only, not {aliases}")


class PastWeekSlice(Sequence):
    """A page of ``PastWeekRows``, read when first used: as entries (``past_week_page``), or as the table's
    ``lean_fields`` when its rows are written from values (``lean_values``, ``federation.table_rows``)."""

    def __init__(self, snapshot, offset: int, limit: int, weeks: list[int] | None = None):
        self.snapshot, self.offset, self.limit, self.weeks = snapshot, offset, limit, weeks
        self._entries = None

    def _read(self) -> list:
        from ratings.gorbunov.selectors import past_week_page

        if self._entries is None:
            self._entries = past_week_page(
                snapshot=self.snapshot, offset=self.offset, limit=self.limit, weeks=self.weeks
            )
        return self._entries

    def lean_values(self, fields: tuple[str, ...]) -> list[dict]:
        from ratings.gorbunov.selectors import past_week_page

        return past_week_page(
            snapshot=self.snapshot, offset=self.offset, limit=self.limit, fields=fields, weeks=self.weeks
        )

    def __getitem__(self, key):
        return self._read()[key]

    def __len__(self) -> int:
        return len(self._read())


def list_table(data, *, view):
    return ListTable(data, view=view)
