"""Reads for the mahjong lists: the engine's input from the database, snapshots, entries and histories.

The engine's input is read in four queries whatever the number of tournaments (tournaments, stages, results,
players) and turned into the engine's frozen dataclasses once; a rebuild of many dates reads it once for the whole
range and picks each date's window in memory.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from dateutil.relativedelta import relativedelta
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KT

from federation.models import Player
from federation.tables import listed
from ratings.engines import mahjong as engine
from ratings.engines.common import EngineError
from ratings.mahjong.params import ENGINE_PRESETS, list_settings
from ratings.models import RatingEntry, RatingList, RatingSnapshot
from tournaments.models import Discipline, Result, Stage, Tournament, TournamentStatus

MAHJONG_ENGINES = tuple(ENGINE_PRESETS)
#: A tournament takes part for 24 whole months after its end (`rules/mahjong.md`, "Age coefficient A"); a window
#: a month wider than that is read so that every tournament with A > 0 on the date is certainly among those read.
WINDOW = relativedelta(months=25)


@dataclass
class MahjongData:
    """Every approved mahjong tournament that can count on some date of a range, as the engine sees it."""

    tournaments: list[engine.RatedTournament] = field(default_factory=list)
    """Sorted by end date; only those whose data the engine accepts."""
    digests: dict[str, str] = field(default_factory=dict)
    """Tournament id -> a digest of everything about it a list reads (its results' players' countries included)."""
    invalid: dict[str, str] = field(default_factory=dict)
    """Tournament id -> why its data cannot be rated (an approved tournament with impossible data)."""
    players: dict[str, engine.PlayerInfo] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    """Tournament id -> its name, for the pages and the summaries."""
    age_steps: dict[str, tuple[date, ...]] = field(default_factory=dict)
    """Tournament id -> the dates its A steps down (``engine.age_steps``), filled as the dates of a run need them."""

    def window(self, as_of: date) -> list[engine.RatedTournament]:
        """The tournaments with A > 0 on ``as_of`` (ended on or before it, less than 24 whole months ago)."""
        return [t for t in self.tournaments if engine.age_bp(t.end_date, as_of) > 0]


def mahjong_lists(*, active_only: bool = True) -> QuerySet[RatingList]:
    lists = RatingList.objects.filter(engine__in=MAHJONG_ENGINES)
    return lists.filter(is_active=True) if active_only else lists


def mahjong_settings(rating_list: RatingList) -> engine.ListSettings:
    return list_settings(rating_list.engine, rating_list.params)


def rated_tournaments() -> QuerySet[Tournament]:
    """The tournaments the lists read: approved mahjong tournaments (drafts and submissions do not count yet)."""
    return Tournament.objects.filter(discipline=Discipline.MAHJONG, status=TournamentStatus.APPROVED)


def to_engine_tournament(
    row: dict, stages: list[tuple[int, int]], results: list[tuple[int | None, int, int | None, bool]]
) -> engine.RatedTournament:
    """One tournament as the engine sees it. N counts every result and substitute (`rules/mahjong.md`)."""
    stage_tuple = tuple(engine.CutoffStage(hanchans=h, players=p) for h, p in stages)
    hanchans = sum(h for h, _ in stages) if stages and not row["hanchans"] else (row["hanchans"] or 0)
    return engine.RatedTournament(
        id=str(row["id"]),
        end_date=row["end_date"],
        players=max(row["participants"] or 0, len(results)),
        hanchans=hanchans,
        country=row["country"],
        # Substitutes count in N but get no rating of their own (`rules/mahjong.md`, "The three lists").
        results=tuple(
            engine.Placement(
                player=None if player is None or substitute else str(player),
                place=place,
                hanchans=played,
            )
            for player, place, played, substitute in results
        ),
        stages=stage_tuple,
        ema=row["ema"],
        accredited=row["accredited"],
        open=row["is_open"],
        online=row["online"],
        rank_restricted=row["rank_restricted"],
        rank_restriction_legitimate=row["rank_restriction_legitimate"],
        name=row["name"],
    )


TOURNAMENT_FIELDS = (
    "id",
    "name",
    "end_date",
    "participants",
    "hanchans",
    "country",
    "ema",
    "accredited",
    "is_open",
    "online",
    "rank_restricted",
    "rank_restriction_legitimate",
)


def mahjong_data(*, start: date, end: date, tournaments: QuerySet[Tournament] | None = None) -> MahjongData:
    """The input of every list dated ``start``..``end``: four queries."""
    queryset = tournaments if tournaments is not None else rated_tournaments()
    rows = list(
        queryset.filter(end_date__gt=start - WINDOW, end_date__lte=end)
        .order_by("end_date", "id")
        .values(*TOURNAMENT_FIELDS)
    )
    ids = [row["id"] for row in rows]
    stages: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for tid, hanchans, players in (
        Stage.objects.filter(tournament_id__in=ids)
        .order_by("tournament_id", "number")
        .values_list("tournament_id", "hanchans", "players")
    ):
        stages[tid].append((hanchans, players))
    results: dict[int, list[tuple[int | None, int, int | None, bool]]] = defaultdict(list)
    player_ids: set[int] = set()
    for tid, player, place, played, substitute in (
        Result.objects.filter(tournament_id__in=ids)
        .order_by("tournament_id", "place", "id")
        .values_list("tournament_id", "player_id", "place", "hanchans_played", "substitute")
    ):
        results[tid].append((player, place, played, substitute))
        if player is not None:
            player_ids.add(player)
    data = MahjongData()
    for pk, country, last, first in Player.objects.filter(pk__in=player_ids).values_list(
        "pk", "country", "last_name", "first_name"
    ):
        data.players[str(pk)] = engine.PlayerInfo(id=str(pk), country=country, name=f"{last} {first}".strip())
    for row in rows:
        tournament = to_engine_tournament(row, stages.get(row["id"], []), results.get(row["id"], []))
        data.names[tournament.id] = row["name"]
        try:
            engine.validate_tournament(tournament, "tournament")
        except EngineError as error:
            data.invalid[tournament.id] = error.message if not error.field else f"{error.field}: {error.message}"
            continue
        data.tournaments.append(tournament)
        countries = ",".join(data.players[r.player].country for r in tournament.results if r.player is not None)
        data.digests[tournament.id] = hashlib.sha1(
            (repr(tournament) + countries).encode(), usedforsecurity=False
        ).hexdigest()
    return data


# ---------------------------------------------------------------------------------------------------------------
# Snapshots and pages
# ---------------------------------------------------------------------------------------------------------------


def list_snapshots(*, rating_list: RatingList, summary: bool = True) -> QuerySet[RatingSnapshot]:
    """A list's snapshots, one per rating date; without ``summary`` (every tournament counted or not) if not needed,
    then with ``stored_entries``: how many players the list has, as the computation stored it."""
    snapshots = rating_list.snapshots.all()
    return snapshots if summary else snapshots.defer("summary").annotate(stored_entries=KT("summary__entries"))


def shown_list_snapshots(*, slug: str) -> QuerySet[RatingSnapshot]:
    """``list_snapshots(summary=False)`` of the active mahjong list ``slug``, each read with its list, with ``newest``
    (whether no later date is published: the newest holds every row, ``storage``)."""
    later = RatingSnapshot.objects.filter(rating_list_id=OuterRef("rating_list_id"), as_of__gt=OuterRef("as_of"))
    return (
        RatingSnapshot.objects.filter(rating_list__slug=slug, rating_list__engine__in=MAHJONG_ENGINES)
        .filter(rating_list__is_active=True)
        .select_related("rating_list")
        .defer("summary")
        .annotate(stored_entries=KT("summary__entries"), newest=~Exists(later))
    )


def snapshot_at(*, rating_list: RatingList, as_of: date | None = None, summary: bool = True) -> RatingSnapshot | None:
    """The snapshot in force on ``as_of`` (the latest on or before it; today's latest when None)."""
    snapshots = list_snapshots(rating_list=rating_list, summary=summary).order_by("-as_of")
    if as_of is not None:
        snapshots = snapshots.filter(as_of__lte=as_of)
    return snapshots.first()


def snapshot_dates(*, rating_list: RatingList) -> QuerySet[RatingSnapshot]:
    return rating_list.snapshots.order_by("-as_of").only("id", "as_of", "computed_at", "rating_list_id")


def snapshot_entries(*, snapshot: RatingSnapshot, with_parts: bool = False) -> QuerySet[RatingEntry]:
    """The rows of the list as of ``snapshot`` with what the list's table and its downloads show of each player (one
    query a page); ``with_parts``: with their ``details`` too (the rating's parts A and B, which the public API gives).

    On the newest date they carry their ranks and changes; on an older one (``snapshot.newest`` False, as
    ``shown_list_snapshots`` annotates it) the rows are each listed player's newest up to the date: ``rows_of`` gives
    them with their ranks and changes on the date."""
    from ratings.mahjong.storage import entries_as_of

    newest = getattr(snapshot, "newest", None)
    if newest is None:
        newest = not snapshot.rating_list.snapshots.filter(as_of__gt=snapshot.as_of).exists()
    entries = entries_as_of(snapshot, newest=newest).select_related("player")
    return listed(entries, "rank", "rating", "delta", "events", "snapshot", *(["details"] if with_parts else []))


def rows_of(entries, *, snapshot: RatingSnapshot) -> list[RatingEntry]:
    """``entries`` (of ``snapshot_entries``, filtered as a page asks) in the list's order, each with the ``rank`` and
    the ``delta`` it has on the date: a row of an earlier date has its player's rank on this one worked out
    (``storage.ranks_as_of``) and no change (0)."""
    from ratings.mahjong.storage import ranks_as_of

    if getattr(snapshot, "newest", True):
        return list(entries.order_by("rank", "player_id"))
    ranks = ranks_as_of(snapshot, newest=False)
    rows = list(entries.order_by())
    for row in rows:
        row.rank = ranks[row.player_id]
        if row.snapshot_id != snapshot.pk:
            row.delta = Decimal(0)
    rows.sort(key=lambda row: row.rank)
    return rows


@dataclass(frozen=True)
class PlayerList:
    """One active list on a player's page: its snapshot in force (None before its first) and the player's entry on
    that date (None when not listed then), with ``rank`` and ``delta`` as of the date and ``details`` explained."""

    rating_list: RatingList
    snapshot: RatingSnapshot | None
    entry: RatingEntry | None


def player_lists(*, player_id: int, as_of: date | None = None) -> list[PlayerList]:
    """The active mahjong lists in their order, each with its snapshot in force on ``as_of`` (today's newest when
    None) and the player's entry on it, explained: the lists, the snapshots, the player's rows; on an older date,
    each list's rows to rank them and the tournaments (four queries) to explain them (the newest keeps its
    explanations, ``storage``)."""
    from ratings.mahjong.explain import Explainer
    from ratings.mahjong.storage import ranks_as_of

    lists = list(mahjong_lists())
    snapshots = latest_snapshots(lists=lists, as_of=as_of)
    newest = snapshots if as_of is None else latest_snapshots(lists=lists)
    rows = (
        RatingEntry.objects.filter(player_id=player_id, snapshot__rating_list__in=lists)
        .filter(snapshot__as_of__lte=max((s.as_of for s in snapshots.values()), default=date.min))
        .select_related("snapshot")
        .defer("snapshot__summary")
        .order_by("snapshot__as_of")
    )
    entries: dict[int, RatingEntry] = {}
    for row in rows:
        shown = snapshots.get(row.snapshot.rating_list_id)
        if shown is not None and row.snapshot.as_of <= shown.as_of:
            entries[row.snapshot.rating_list_id] = row  # the newest up to the date wins
    found = []
    wanted = []
    for rating_list in lists:
        snapshot = snapshots.get(rating_list.pk)
        entry = entries.get(rating_list.pk) if snapshot is not None else None
        latest = newest.get(rating_list.pk)
        if entry is not None and latest is not None and latest.pk == snapshot.pk and entry.snapshot_id != snapshot.pk:
            entry = None  # the newest holds every listed player: not in it, not listed (it keeps no row of leaving)
        if entry is not None and not entry.listed:
            entry = None
        if entry is not None and entry.snapshot_id != snapshot.pk:
            entry.rank = ranks_as_of(snapshot, newest=False)[player_id]
            entry.delta = Decimal(0)
        if entry is not None and "scores" not in entry.details:  # the newest keeps its explanations
            wanted.append((rating_list, snapshot.as_of, entry))
        found.append(PlayerList(rating_list, snapshot, entry))
    if wanted:
        data = mahjong_data(start=min(day for _, day, _ in wanted), end=max(day for _, day, _ in wanted))
        for rating_list, day, entry in wanted:
            explained = Explainer(rating_list, data).details(day, {player_id: entry.rank}).get(player_id)
            entry.details = _checked(entry, explained)
    return found


def _checked(entry: RatingEntry, explained: dict | None) -> dict:
    """The explanation of a stored entry, said to be of the tournaments as they are now (``stale``) when those no
    longer give the stored numbers (a tournament corrected or deleted after the list was published): the entry's
    numbers stay the published ones (``ratings.mahjong.explain``)."""
    stored = entry.details
    if explained is None:
        return {**stored, "scores": [], "formula": {"en": [], "ru": []}, "stale": True}
    same = round(explained["exact"], 9) == round(stored.get("exact", explained["exact"]), 9)
    return {**explained, "part_a": stored.get("part_a"), "part_b": stored.get("part_b"), "stale": not same}


def player_history(*, player_id: int) -> dict[int, list[tuple[str, float, int]]]:
    """The player's entries in the active mahjong lists, oldest first, per list id: (ISO date, rating, rank) on each
    date the entry changed (and the newest), the chart's points; a date the player left a list ends its line. One
    query."""
    history: dict[int, list[tuple[str, float, int]]] = defaultdict(list)
    rows = (
        RatingEntry.objects.filter(player_id=player_id, snapshot__rating_list__in=mahjong_lists(), listed=True)
        .order_by("snapshot__as_of")
        .values_list("snapshot__rating_list_id", "snapshot__as_of", "rating", "rank")
    )
    for list_id, day, rating, rank in rows:
        history[list_id].append((day.isoformat(), float(rating), rank))
    return history


def latest_snapshots(*, lists: list[RatingList], as_of: date | None = None) -> dict[int, RatingSnapshot]:
    """The snapshot in force of each list (as ``snapshot_at`` without the summary), by list id, in one query: each
    list's newest snapshot on or before ``as_of`` picked by a correlated subquery."""
    in_force = RatingSnapshot.objects.filter(rating_list=OuterRef("pk")).order_by("-as_of")
    if as_of is not None:
        in_force = in_force.filter(as_of__lte=as_of)
    shown = RatingList.objects.filter(pk__in=[rating_list.pk for rating_list in lists])
    snapshots = (
        RatingSnapshot.objects.filter(pk__in=shown.values(in_force=Subquery(in_force.values("pk")[:1])))
        .order_by()  # by list, below
        .defer("summary")
        .annotate(stored_entries=KT("summary__entries"))
    )
    by_id = {rating_list.pk: rating_list for rating_list in lists}
    found = {}
    for snapshot in snapshots:
        snapshot.rating_list = by_id[snapshot.rating_list_id]  # the list as read: no query for it
        found[snapshot.rating_list_id] = snapshot
    return found


def tournament_names(ids: list[str] | set[str]) -> dict[str, Tournament]:
    pks = [int(pk) for pk in ids if str(pk).isdigit()]
    return {
        str(t.pk): t for t in Tournament.objects.filter(pk__in=pks).only("id", "name", "name_en", "end_date", "city")
    }
