"""How a mahjong list's history is kept (issue 29), and the list as of any date read back from it.

Until issue 29 every date on which a list changed stored the whole list again, each entry with its explanation as
JSON (about 1.5 KB a row): two years of a 1,500-player federation took 1.7 GB, and ten years would not fit a small
server. Now the mahjong lists are kept as the Gorbunov lists are (``ratings.gorbunov.services``):

- the **newest** snapshot of a list holds a row for every listed player, with its rank (the page read most is a
  plain read of one snapshot);
- an **older** snapshot holds only the players whose entry changed on its date (rating, tournaments counted, parts A
  and B, or the unrounded rating that ranks), each with its rank on that date, and a row with ``listed`` unticked
  for each player who left the list then;
- a row keeps the numbers (``details``: part A, part B, the unrounded rating, the size of part A); the tournaments'
  W, R, A and delta and the formula lines are the engine's to recompute when a person opens them
  (``ratings.mahjong.explain``), from the tournaments as they are.

The list as of a date is each player's newest row up to it. A rank on a date where the player's row is older is
worked out the engine's way (`rules/mahjong.md`, "Result": by the unrounded rating, then by name), from the stored
unrounded rating. **Decision:** that value is kept as the engine's float (the correctly rounded value of the exact
fraction); two ratings that differ only beyond it would be ordered by name, where the engine, holding the fraction,
orders them by value. No such pair can come from the rules' numbers in practice; the newest list and each row's own
date keep the engine's rank as it gave it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.db.models import F, QuerySet, Subquery, Value, Window
from django.db.models.functions import Coalesce, FirstValue, RowNumber

from federation.models import Player
from ratings.bulk import copy_rows
from ratings.engines import mahjong as engine
from ratings.mahjong.explain import entry_details
from ratings.models import RatingEntry, RatingSnapshot

#: The summary's mark of a whole snapshot: a row for every player the list ever held up to it (listed, or a row of
#: leaving), so that the list as of a later date needs no row before it. The first snapshot of each month is made
#: whole: a month of changes at most is read for any date, for a list's row a player a month (issue 29).
WHOLE = "whole"

#: What a row keeps of an entry's explanation: the numbers (the scores and the formula are worked out again).
KEPT = ("part_a", "part_b", "exact", "k")

#: The columns a mahjong row is written with (``details`` as JSON text).
ENTRY_COLUMNS = ("snapshot_id", "player_id", "rank", "rating", "delta", "events", "details", "listed")


@dataclass(frozen=True)
class Held:
    """A listed player's entry as a list holds it on a date."""

    cents: int
    rank: int
    events: int
    details: dict

    @property
    def key(self) -> tuple:
        """What makes a row: the same key on the next date means no row there."""
        return (self.cents, self.events, *(self.details.get(key) for key in KEPT))


State = dict[int, Held]


def details_of(entry: engine.Entry) -> dict:
    """What a row keeps of an engine's entry: the parts, the unrounded rating (ranks on older dates are worked out
    from it) and the number of tournaments in part A."""
    return {
        "part_a": entry.part_a,
        "part_b": entry.part_b,
        "exact": entry.rating_unrounded,
        "k": entry.part_a_size,
    }


def slim(details: dict) -> dict:
    """What an older date's row keeps of an explanation: its numbers (``KEPT``)."""
    return {key: details.get(key) for key in KEPT}


def held_of(entry: engine.Entry) -> Held:
    return Held(round(entry.rating * 100), entry.rank, entry.tournaments, details_of(entry))


def _cents_text(cents: int) -> str:
    """Hundredths as the decimal text a numeric column takes (-5 -> "-0.05")."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole}.{rest:02d}"


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _row(snapshot_id: int, player_id: int, held: Held, delta: int | None) -> tuple:
    delta_text = None if delta is None else _cents_text(delta)
    return (
        snapshot_id,
        player_id,
        held.rank,
        _cents_text(held.cents),
        delta_text,
        held.events,
        _dumps(held.details),
        True,
    )


def _left(snapshot_id: int, player_id: int) -> tuple:
    return (snapshot_id, player_id, 0, "0.00", None, 0, "{}", False)


def _held(rating: Decimal, rank: int, events: int, details: dict) -> Held:
    return Held(int(rating * 100), rank, events, details)


def _cents(value: Decimal | None) -> int | None:
    """A stored change in hundredths (None: the player was new)."""
    return None if value is None else int(value * 100)


# ---------------------------------------------------------------------------------------------------------------
# Reads
# ---------------------------------------------------------------------------------------------------------------


def newest_snapshot(rating_list_id: int) -> RatingSnapshot | None:
    return RatingSnapshot.objects.filter(rating_list_id=rating_list_id).defer("summary").order_by("-as_of").first()


def rows_up_to(rating_list_id: int, as_of: date, *, listed: bool | None = None) -> QuerySet[RatingEntry]:
    """Each player's newest row on or before ``as_of``; ``listed``: only those of players listed (True) or who left
    (False) then.

    One query: the rows from the newest whole snapshot up to the date (``WHOLE``: the first of each month holds a row
    of everyone the list ever held) to the date, numbered per player, newest first, by a window function, the first
    of each kept (a sort of a month's rows at most, where an anti-join read every row up
    to the date once per row). Filters added
    to the answer (a city, a name) apply before the numbering, which is per player, so they keep it right; whether the
    player is listed is the newest row's, filtered after it.
    """
    newest_first = {"partition_by": F("player_id"), "order_by": F("snapshot__as_of").desc()}
    whole = RatingSnapshot.objects.filter(rating_list_id=rating_list_id, as_of__lte=as_of, summary__whole=True)
    # The newest whole snapshot holds a row of everyone the list ever held: nothing before it is needed.
    since = Coalesce(Subquery(whole.order_by("-as_of").values("as_of")[:1]), Value(date.min))
    rows = RatingEntry.objects.filter(
        snapshot__rating_list_id=rating_list_id, snapshot__as_of__lte=as_of, snapshot__as_of__gte=since
    )
    rows = rows.annotate(
        newest_row=Window(RowNumber(), **newest_first),
        still_listed=Window(FirstValue("listed"), **newest_first),
    )
    rows = rows.filter(newest_row=1)
    return rows if listed is None else rows.filter(still_listed=listed)


def entries_as_of(snapshot: RatingSnapshot, *, newest: bool) -> QuerySet[RatingEntry]:
    """The rows of the list as of ``snapshot``: its own when it is the newest (it holds everyone), else each listed
    player's newest row up to its date."""
    if newest:
        return RatingEntry.objects.filter(snapshot_id=snapshot.pk)
    return rows_up_to(snapshot.rating_list_id, snapshot.as_of, listed=True)


def state_as_of(rating_list_id: int, as_of: date) -> State:
    """Every listed player's entry as of ``as_of`` (ranks as stored: on an older date, each row's own date's)."""
    newest = newest_snapshot(rating_list_id)
    if newest is None or newest.as_of > as_of:
        rows = rows_up_to(rating_list_id, as_of, listed=True)
    else:
        rows = RatingEntry.objects.filter(snapshot_id=newest.pk)
    return {
        player_id: _held(rating, rank, events, details)
        for player_id, rating, rank, events, details in rows.order_by().values_list(
            "player_id", "rating", "rank", "events", "details"
        )
    }


def sort_key(exact: float, last_name: str, first_name: str, player_id: int) -> tuple:
    """The engine's order of a list (``engine.rank_exactly``: by the unrounded rating, then by the name it was given,
    ``"last first"``, then by id as text)."""
    name = f"{last_name} {first_name}".strip() or str(player_id)
    return (-exact, name, str(player_id))


def ranks_of(rows: Iterable[tuple[int, dict, str, str]]) -> dict[int, int]:
    """Player id -> rank, for the rows ``(player_id, details, last_name, first_name)`` of one date's list."""
    ordered = sorted(rows, key=lambda row: sort_key(row[1]["exact"], row[2], row[3], row[0]))
    return {row[0]: rank for rank, row in enumerate(ordered, start=1)}


def ranks_as_of(snapshot: RatingSnapshot, *, newest: bool) -> dict[int, int]:
    """Every listed player's rank as of ``snapshot``: stored in the newest, worked out on an older date."""
    rows = entries_as_of(snapshot, newest=newest).order_by()
    if newest:
        return dict(rows.values_list("player_id", "rank"))
    return ranks_of(rows.values_list("player_id", "details", "player__last_name", "player__first_name"))


# ---------------------------------------------------------------------------------------------------------------
# Writes
# ---------------------------------------------------------------------------------------------------------------


def _insert(rows: list[tuple]) -> None:
    if rows:
        copy_rows(RatingEntry, ENTRY_COLUMNS, rows, json_text=True)


def _replace(snapshot: RatingSnapshot, rows: list[tuple]) -> None:
    """Make ``rows`` the snapshot's rows (a few thousand at most: one list of one date)."""
    RatingEntry.objects.filter(snapshot_id=snapshot.pk).delete()
    _insert(rows)


#: The explanations of a date's entries, worked out by the engine: (snapshot, player id -> rank) -> id -> details.
Explain = Callable[[RatingSnapshot, dict[int, int]], dict[int, dict]]


def _whole(snapshot: RatingSnapshot) -> bool:
    rows = RatingEntry.objects.filter(snapshot_id=snapshot.pk)
    return not rows.filter(listed=False).exists() and rows.count() == stored_count(snapshot)


def thin(snapshot: RatingSnapshot) -> None:
    """Keep in a snapshot that is no longer the newest only the rows of players whose entry changed on its date,
    their numbers only, and a row for each player who left then."""
    if RatingSnapshot.objects.filter(pk=snapshot.pk, summary__whole=True).exists():
        _keep_whole(snapshot)
        return
    if not _whole(snapshot):
        return  # thin already
    before = state_as_of(snapshot.rating_list_id, snapshot.as_of - timedelta(days=1))
    kept = []
    present = set()
    for player_id, rating, rank, delta, events, details in RatingEntry.objects.filter(
        snapshot_id=snapshot.pk
    ).values_list("player_id", "rating", "rank", "delta", "events", "details"):
        present.add(player_id)
        held = _held(rating, rank, events, slim(details))
        old = before.get(player_id)
        if old is None or old.key != held.key:
            kept.append(_row(snapshot.pk, player_id, held, _cents(delta)))
    _replace(snapshot, kept + [_left(snapshot.pk, player_id) for player_id in before.keys() - present])


def _keep_whole(snapshot: RatingSnapshot) -> None:
    """A whole snapshot that is no longer the newest: its rows with their numbers only, and a row of leaving for each
    player the list held before and not on its date."""
    rows = RatingEntry.objects.filter(snapshot_id=snapshot.pk, listed=True)
    kept = [
        _row(snapshot.pk, player_id, _held(rating, rank, events, slim(details)), _cents(d))
        for player_id, rating, rank, d, events, details in rows.values_list(
            "player_id", "rating", "rank", "delta", "events", "details"
        )
    ]
    held = {row[1] for row in kept}
    earlier = RatingEntry.objects.filter(
        snapshot__rating_list_id=snapshot.rating_list_id, snapshot__as_of__lt=snapshot.as_of
    )
    gone = set(earlier.values_list("player_id", flat=True).distinct()) - held
    _replace(snapshot, kept + [_left(snapshot.pk, player_id) for player_id in sorted(gone)])


def _mark_whole(snapshot: RatingSnapshot) -> None:
    summary = RatingSnapshot.objects.filter(pk=snapshot.pk).values_list("summary", flat=True).first() or {}
    RatingSnapshot.objects.filter(pk=snapshot.pk).update(summary={**summary, WHOLE: True})


def fill(
    snapshot: RatingSnapshot,
    state: State,
    deltas: dict[int, int | None],
    *,
    explained: dict[int, dict] | None = None,
    left: Iterable[int] = (),
) -> None:
    """Make ``snapshot`` hold the whole list ``state`` of its date: the newest with each entry's explanation
    (``explained``), an older one (a later date a rebuild of earlier ones must leave as it read) with its numbers and
    a row for each player of ``left``: every player the list held before and not then. ``deltas``: the change of
    each player who has one on the date (None: new), the others 0."""
    rows = []
    for player_id, held in state.items():
        if explained is not None:
            held = Held(held.cents, held.rank, held.events, explained[player_id])
        rows.append(_row(snapshot.pk, player_id, held, deltas.get(player_id, 0)))
    _replace(snapshot, rows + [_left(snapshot.pk, player_id) for player_id in left])


def fill_from_database(snapshot: RatingSnapshot, *, explain: Explain | None = None) -> None:
    """``fill`` for a snapshot the run did not compute: the list of its date read back, its ranks worked out; the
    newest explained again (``explain``), an older one with a row for each player who left before it."""
    rows = rows_up_to(snapshot.rating_list_id, snapshot.as_of).order_by()
    state: State = {}
    gone = []
    for player_id, rating, rank, events, details, listed in rows.values_list(
        "player_id", "rating", "rank", "events", "details", "still_listed"
    ):
        if listed:
            state[player_id] = _held(rating, rank, events, slim(details))
        else:
            gone.append(player_id)
    deltas = {
        player_id: _cents(delta)
        for player_id, delta in RatingEntry.objects.filter(snapshot_id=snapshot.pk, listed=True).values_list(
            "player_id", "delta"
        )
    }
    names = dict(
        (pk, (last, first))
        for pk, last, first in Player.objects.filter(pk__in=list(state)).values_list("pk", "last_name", "first_name")
    )
    ranks = ranks_of((pid, held.details, *names.get(pid, ("", ""))) for pid, held in state.items())
    state = {pid: Held(h.cents, ranks[pid], h.events, h.details) for pid, h in state.items()}
    if explain is not None:
        fill(snapshot, state, deltas, explained=explain(snapshot, ranks))
    else:
        fill(snapshot, state, deltas, left=gone)
        _mark_whole(snapshot)


def stored_count(snapshot: RatingSnapshot) -> int:
    """How many players the list holds as of ``snapshot``, as its summary stored it."""
    summary = RatingSnapshot.objects.filter(pk=snapshot.pk).values_list("summary", flat=True).first() or {}
    return summary.get("entries", -1)


@dataclass
class _Written:
    snapshot: RatingSnapshot
    rows: list[tuple]
    """The date's own rows (a change, a newcomer, one who left), as an older date keeps them."""
    state: State
    entries: dict[int, engine.Entry]


class ListWriter:
    """The rows of one list over a run of dates, written in date order (the daily job, a rebuild, an import).

    ``start``..``end``: the dates the run may write. Each date gets the rows of the players whose entry changed since
    the list before it; ``seal`` (at the end of each transaction) leaves the list's newest snapshot holding everyone
    with their explanations, so that every commit leaves the lists whole, and a snapshot after the run's last date
    reads as it did. ``explain``: the engine's explanations of a date the run did not compute.
    """

    def __init__(self, rating_list_id: int, start: date, end: date, explain: Explain) -> None:
        self.rating_list_id = rating_list_id
        self.explain = explain
        self.state: State = state_as_of(rating_list_id, start - timedelta(days=1))
        snapshots = RatingSnapshot.objects.filter(rating_list_id=rating_list_id).defer("summary")
        before = snapshots.filter(as_of__lt=start).order_by("-as_of").values_list("as_of", flat=True).first()
        self._month = None if before is None else (before.year, before.month)
        self.ever: set[int] = set(
            RatingEntry.objects.filter(snapshot__rating_list_id=rating_list_id, snapshot__as_of__lt=start)
            .values_list("player_id", flat=True)
            .distinct()
        )
        """Every player the list held before the date being written (a whole snapshot has a row for each)."""
        newest = snapshots.order_by("-as_of").first()
        self._full: _Written | RatingSnapshot | None = None
        """The snapshot that holds everyone, if it is one this writer knows: written here, or the newest before."""
        if newest is not None and newest.as_of < start:
            self._full = newest
        later = snapshots.filter(as_of__gt=end).order_by("as_of").first()
        if later is not None and later.pk != newest.pk and not _whole(later):
            # An older snapshot after the run: made whole, it reads the same whatever the run writes before it.
            fill_from_database(later)
        self._last: _Written | None = None

    def _full_date(self) -> date | None:
        if isinstance(self._full, _Written):
            return self._full.snapshot.as_of
        return None if self._full is None else self._full.as_of

    def write(self, snapshot: RatingSnapshot, entries: Iterable[engine.Entry]) -> State:
        """Write the list ``entries`` (the engine's, ranked) as of ``snapshot`` (new, empty); returns the state."""
        self._thin_full(snapshot.as_of)
        before = self.state
        now: State = {}
        rows = []
        by_player = {}
        for entry in entries:
            player_id = int(entry.player)
            by_player[player_id] = entry
            held = now[player_id] = held_of(entry)
            old = before.get(player_id)
            if old is None or old.key != held.key:
                rows.append(_row(snapshot.pk, player_id, held, None if old is None else held.cents - old.cents))
        rows += [_left(snapshot.pk, player_id) for player_id in before.keys() - now.keys()]
        month = (snapshot.as_of.year, snapshot.as_of.month)
        if month != self._month:  # the month's first date: whole (``WHOLE``)
            present = {row[1] for row in rows}
            rows += [_row(snapshot.pk, pid, held, 0) for pid, held in now.items() if pid not in present]
            rows += [_left(snapshot.pk, pid) for pid in sorted(self.ever - now.keys() - present)]
            snapshot.summary[WHOLE] = True
            snapshot.save(update_fields=["summary"])
            self._month = month
        _insert(rows)
        self.ever |= now.keys()
        self.state = now
        self._last = _Written(snapshot, rows, now, by_player)
        return now

    def removed(self, day: date) -> None:
        """The snapshot of ``day`` was removed (nothing changed on it: the list as of it is the one before)."""
        if self._last is not None and self._last.snapshot.as_of == day:
            self._last = None
        if self._full_date() == day:
            self._full = None

    def _thin_full(self, day: date) -> None:
        full_date = self._full_date()
        if full_date is None or full_date > day:
            return
        if full_date < day:
            full = self._full
            if isinstance(full, _Written):
                _replace(full.snapshot, full.rows)
            else:
                thin(full)
        self._full = None  # on ``day`` itself: rewritten, removed by the caller with its rows

    def seal(self) -> None:
        """Leave the list's newest snapshot holding everyone (at the end of each transaction of a run)."""
        newest = newest_snapshot(self.rating_list_id)
        if newest is None or newest.as_of == self._full_date():
            return
        last = self._last
        if last is not None and last.snapshot.pk == newest.pk:
            deltas = {row[1]: row[4] for row in last.rows}
            deltas = {pid: None if text is None else int(Decimal(text) * 100) for pid, text in deltas.items()}
            explained = {pid: entry_details(entry) for pid, entry in last.entries.items()}
            fill(newest, last.state, deltas, explained=explained)
            self._full = last
            return
        # A newest snapshot this run did not write: the one before the run's dates, after the run removed every
        # date after it, or one later in the run's range not reached yet. Whole already unless it was older.
        if not _whole(newest):
            fill_from_database(newest, explain=self.explain)
        self._full = newest
