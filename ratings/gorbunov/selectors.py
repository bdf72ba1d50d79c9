"""Reads of the Gorbunov lists for the pages: a bounded number of queries whatever the number of players.

The newest snapshot of a list holds every player; an older one only the players whose rating moved that week
(see ``services``). The list as of an older week is each player's newest entry up to that week, picked with a
window function (``ROW_NUMBER() OVER (PARTITION BY player ORDER BY as_of DESC) = 1``), and ranks come from all the
ratings of that week.
"""

from __future__ import annotations

import bisect
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property, partial

from django.db.models import F, FilteredRelation, Max, Q, QuerySet, Window
from django.db.models.fields.json import KT
from django.db.models.functions import RowNumber

from federation.db import marked_rows, marked_statement
from federation.models import Player
from federation.selectors import player_search
from federation.tables import listed
from ratings.engines.gorbunov import week_start
from ratings.gorbunov.params import validate
from ratings.models import Engine, RatingChange, RatingEntry, RatingList, RatingSnapshot, StartingRating
from tournaments.models import Discipline, Tournament, TournamentStatus

WEEK = dt.timedelta(days=7)


def gorbunov_lists() -> QuerySet[RatingList]:
    """Active Gorbunov lists, each with the Monday of its newest publication (``latest``)."""
    return (
        RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True)
        .annotate(latest=Max("snapshots__as_of"))
        .order_by("ordering", "slug")
    )


def list_snapshots(*, rating_list: RatingList) -> QuerySet[RatingSnapshot]:
    """A list's publications, one per rating week (``ratings.dates.list_for_date`` picks the one to show), with
    ``stored_players``: how many players the list had that week, as the publication stored it (``summary``)."""
    return (
        RatingSnapshot.objects.filter(rating_list=rating_list)
        .defer("summary")
        .annotate(stored_players=KT("summary__players"))
    )


def shown_list_snapshots(*, slug: str) -> QuerySet[RatingSnapshot]:
    """``list_snapshots`` of the active Gorbunov list ``slug`` read with their list (one query for both on the
    list's page; the page reads the list alone only when it has no publication)."""
    return (
        RatingSnapshot.objects.filter(rating_list__slug=slug, rating_list__engine=Engine.GORBUNOV)
        .filter(rating_list__is_active=True)
        .select_related("rating_list")
        .defer("summary")
        .annotate(stored_players=KT("summary__players"))
    )


def weeks_up_to(snapshot: RatingSnapshot) -> tuple[list[int], bool]:
    """The ids of the list's publications up to this one, oldest first (what ``past_week_page`` merges), and
    whether it is the newest: one query for both (they were two on an older week's page), its statement compiled
    once per process (``federation.db.marked_rows``)."""
    rows = marked_rows(
        ("gorbunov.weeks_up_to",),
        lambda list_id: (
            RatingSnapshot.objects.filter(rating_list_id=list_id).order_by("as_of", "id").values_list("id", "as_of")
        ),
        values={"list_id": snapshot.rating_list_id},
    )
    weeks, newest = [], True
    for week_id, as_of in rows:
        if as_of <= snapshot.as_of:
            weeks.append(week_id)
        else:
            newest = False
    return weeks, newest


@dataclass
class ListView:
    """The entries of a list as of one publication and how to rank them."""

    snapshot: RatingSnapshot
    newest: bool
    _ascending: list[float] | None = None
    #: ``weeks_up_to(snapshot)`` when it was read to tell whether the snapshot is the newest.
    weeks: list[int] | None = None
    #: The players to keep (``list_view``'s search, city and club).
    search: str = ""
    city: str = ""
    club_id: int | None = None

    @cached_property
    def entries(self) -> QuerySet[RatingEntry]:
        """The list's rows (built when first asked: an older week's page read in rank order does not need them, and
        building its window over every earlier week took a twentieth of that page, issue 16)."""
        snapshot = self.snapshot
        entries = RatingEntry.objects.filter(snapshot_id=snapshot.pk) if self.newest else _latest_entries(snapshot)
        if self.search or self.city or self.club_id:
            players = Player.objects.all()
            if self.city:
                players = players.filter(city=self.city)
            if self.club_id:
                players = players.filter(club_id=self.club_id)
            if self.search:
                players = player_search(queryset=players, search=self.search)
            entries = entries.filter(player__in=players.values("pk"))
        return listed(
            entries.select_related("player__club"), "rank", "rating", "delta", "events", "snapshot", club="player__club"
        )

    def rank(self, entry: RatingEntry) -> int:
        if self.newest:
            return entry.rank
        if hasattr(entry, "shown_rank"):  # read with its rank (past_week_page)
            return entry.shown_rank
        if self._ascending is None:
            self._ascending = sorted(float(r) for r in _latest_entries(self.snapshot).values_list("rating", flat=True))
        return len(self._ascending) - bisect.bisect_right(self._ascending, float(entry.rating)) + 1

    def delta(self, entry: RatingEntry):
        """The change against last week: an entry of an older snapshot did not move this week."""
        return entry.delta if entry.snapshot_id == self.snapshot.pk else 0


def _latest_entries(snapshot: RatingSnapshot) -> QuerySet[RatingEntry]:
    return (
        RatingEntry.objects.filter(
            snapshot__rating_list_id=snapshot.rating_list_id, snapshot__as_of__lte=snapshot.as_of
        )
        .annotate(newest_row=Window(RowNumber(), partition_by=[F("player_id")], order_by=F("snapshot__as_of").desc()))
        .filter(newest_row=1)
    )


def list_view(
    *,
    snapshot: RatingSnapshot,
    search: str = "",
    city: str = "",
    club_id: int | None = None,
    newest: bool | None = None,
) -> ListView:
    """``newest``: whether ``snapshot`` is the list's newest publication, when the caller knows (it asked for the
    newest); read otherwise."""
    weeks = None
    if newest is None:
        weeks, newest = weeks_up_to(snapshot)
    return ListView(snapshot=snapshot, newest=newest, weeks=weeks, search=search, city=city, club_id=club_id)


def newest_list_entries(snapshot_id: int) -> QuerySet[RatingEntry]:
    """``list_view(...).entries`` of the newest publication, unfiltered, by the publication's id (a list page's
    ``LeanSource``)."""
    return list_view(snapshot=RatingSnapshot(pk=snapshot_id), newest=True).entries


def past_week_page(
    *, snapshot: RatingSnapshot, offset: int, limit: int, fields: tuple[str, ...] = (), weeks: list[int] | None = None
) -> list[RatingEntry] | list[dict]:
    """One page of an older week's list in rank order (rating, then player id), each entry with ``shown_rank``,
    in two queries (three after the first page), however many players and weeks.

    The list of an older week is each player's newest entry up to that week. Instead of ranking every entry of
    every earlier week (``_latest_entries``: a window over all of them, 100+ ms for 20,000 players), each earlier
    publication gives its best entries in rating order from the index ``entry_snapshot_rating_idx``, skipping those
    of players with a newer entry up to that week; PostgreSQL merges these ordered streams and stops after the page.
    A rank is one more than the number of players rated higher: the first row's is counted (nothing to count on the
    first page), the others follow from the rows above them (equal ratings, equal ranks).
    """
    from django.db import connection
    from django.db.models.expressions import RawSQL

    if weeks is None:  # ``weeks``: ``weeks_up_to(snapshot)``, when the caller read it
        weeks = weeks_up_to(snapshot)[0]
    table = connection.ops.quote_name(RatingEntry._meta.db_table)

    def legs(columns: str, condition: str, condition_params: list, tail: str, tail_params: list, weeks=weeks):
        parts, params = [], []
        for n, week_id in enumerate(weeks):
            newer = weeks[n + 1 :]
            sql = f"SELECT {columns} FROM {table} e WHERE e.snapshot_id = %s{condition}"
            params += [week_id, *condition_params]
            if newer:
                marks = ", ".join(["%s"] * len(newer))
                sql += (
                    f" AND NOT EXISTS (SELECT 1 FROM {table} n"
                    f" WHERE n.player_id = e.player_id AND n.snapshot_id IN ({marks}))"
                )
                params += newer
            # SQLite takes no parenthesised member of a UNION, so there each member is read from a subquery
            # (which keeps its own ORDER BY and LIMIT); PostgreSQL merges the parenthesised members' ordered streams.
            parts.append(f"({sql}{tail})" if connection.vendor == "postgresql" else f"SELECT * FROM ({sql}{tail})")
            params += tail_params
        return " UNION ALL ".join(parts), params

    def page_of(weeks: list[int], top: int, limit: int, offset: int):
        union, params = legs(
            "e.id, e.rating, e.player_id", "", [], " ORDER BY e.rating DESC, e.player_id LIMIT %s", [top], weeks
        )
        page_ids = f"SELECT id FROM ({union}) rows ORDER BY rating DESC, player_id LIMIT %s OFFSET %s"
        return (
            RatingEntry.objects.filter(pk__in=RawSQL(page_ids, [*params, limit, offset]))
            .select_related("player__club")
            .defer("details")
            .order_by("-rating", "player_id")
        )

    if fields:
        # The rows as ``QuerySet.values`` (a table's ``lean_fields``), each with its "shown_rank"; the statement
        # written once per process for each number of weeks (``federation.db.marked_rows``).
        names = (*fields, "rating")
        values = {f"week{n}": week for n, week in enumerate(weeks)} | {"top": offset + limit, "limit": limit}
        values["offset"] = offset

        def build(**marks):
            marked = [marks[f"week{n}"] for n in range(len(weeks))]
            return page_of(marked, marks["top"], marks["limit"], marks["offset"]).values_list(*names)

        key = ("gorbunov.past_week_page", len(weeks), names)
        entries = [dict(zip(names, row, strict=True)) for row in marked_rows(key, build, values=values)]
    else:
        entries = list(page_of(weeks, offset + limit, limit, offset))
    if not entries:
        return entries
    rating = (lambda row: row["rating"]) if fields else (lambda entry: entry.rating)
    higher = 0
    if offset:
        union, params = legs("1", " AND e.rating > %s", [rating(entries[0])], "", [])
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) FROM ({union}) higher", params)
            higher = cursor.fetchone()[0]
    previous, shown = None, 0
    for position, entry in enumerate(entries):
        if previous is None or rating(entry) != rating(previous):
            shown = higher + 1 if position == 0 else offset + position + 1
        if fields:
            entry["shown_rank"] = shown
        else:
            entry.shown_rank = shown
        previous = entry
    return entries


# --- the player's and the tournament's sections --------------------------------------------------------------------


@dataclass
class PlayerRating:
    rating_list: RatingList
    current: RatingEntry


def player_ratings(*, player: Player) -> list[PlayerRating]:
    """The newest entry of a player in every active Gorbunov list (the public API's player), in one query."""
    entries = (
        RatingEntry.objects.filter(player=player, snapshot__rating_list__engine=Engine.GORBUNOV)
        .filter(snapshot__rating_list__is_active=True)
        .select_related("snapshot__rating_list")
        .defer("details", "snapshot__summary", "snapshot__rating_list__params")  # not shown; JSON to decode
        .order_by("snapshot__rating_list__ordering", "snapshot__rating_list_id", "snapshot__as_of")
    )
    by_list: dict[int, PlayerRating] = {}
    for entry in entries:
        by_list[entry.snapshot.rating_list_id] = PlayerRating(entry.snapshot.rating_list, entry)
    return list(by_list.values())


@dataclass
class PlayerList:
    """One Gorbunov list of a player's page, as plain values (``sections.player_section`` writes them)."""

    name: str
    slug: str
    rating: Decimal
    events: int
    #: (rating, date of the federation's list) the player started from, if carried over.
    starting: tuple[Decimal, dt.date] | None
    #: (Monday, rating) of every publication that moved the player, oldest first.
    points: list[tuple[dt.date, int]] = field(default_factory=list)
    #: The changes, newest first: dicts of ``CHANGE_FIELDS`` and "explanation" (in the page's language).
    changes: list[dict] = field(default_factory=list)


#: What a change's row and the chart's events show.
CHANGE_FIELDS = ("rating_list_id", "tournament_id", "tournament__name", "event_date", "before", "delta", "details")

#: What a player's page reads of their entries in the active Gorbunov lists, with the starting rating of each.
_LIST_FIELDS = (
    *("snapshot__rating_list_id", "snapshot__rating_list__name", "snapshot__rating_list__name_en"),
    *("snapshot__rating_list__slug", "snapshot__as_of", "rating", "events", "start__rating", "start__list_date"),
)


def _list_rows(player_id: int):
    return (
        RatingEntry.objects.filter(player_id=player_id, snapshot__rating_list__engine=Engine.GORBUNOV)
        .filter(snapshot__rating_list__is_active=True)
        .annotate(
            start=FilteredRelation(
                "snapshot__rating_list__starting_ratings",
                condition=Q(snapshot__rating_list__starting_ratings__player_id=player_id),
            )
        )
        .order_by("snapshot__rating_list__ordering", "snapshot__rating_list_id", "snapshot__as_of")
        .values_list(*_LIST_FIELDS)
    )


def _change_rows(player_id: int, explanation: str):
    """A player's changes in the active lists, with their explanations in one language (``explanation_ru``/``_en``)."""
    return (
        RatingChange.objects.filter(player_id=player_id, rating_list__engine=Engine.GORBUNOV)
        .filter(rating_list__is_active=True)
        .order_by("-event_date", "-id")
        .values_list(*CHANGE_FIELDS, explanation)
    )


def _player_rows(key: str, build, fields: tuple[str, ...], **values) -> list[dict]:
    """``build``'s rows as dicts, through ``federation.db.marked_rows`` (compiled once per process, prepared by
    PostgreSQL: the ORM took longer to write these statements on every page than PostgreSQL to answer, issue 16)."""
    return [dict(zip(fields, row, strict=True)) for row in marked_rows((key,), build, values=values)]


def player_list_statements(*, player_id: int, language: str) -> list:
    """What ``player_lists`` sends (``federation.db.reads_together``): the ratings, and the changes (read for
    nothing when the player has no rating)."""
    explanation = "explanation_ru" if language.startswith("ru") else "explanation_en"
    return [
        marked_statement(("gorbunov.player_lists",), _list_rows, values={"player_id": player_id}),
        marked_statement(
            (f"gorbunov.player_changes.{explanation}",),
            partial(_change_rows, explanation=explanation),
            values={"player_id": player_id},
        ),
    ]


def player_lists(*, player_id: int, language: str) -> list[PlayerList]:
    """Every active Gorbunov list a player has a rating in, in the lists' order: the rating, its history, the
    starting rating and the changes, read as plain values (no model instances) in two queries (one for a player
    with none)."""
    english = language.startswith("en")  # RatingList.display_name's rule
    lists: dict[int, PlayerList] = {}
    for row in _player_rows("gorbunov.player_lists", _list_rows, _LIST_FIELDS, player_id=player_id):
        item = lists.get(row["snapshot__rating_list_id"])
        if item is None:
            starting = None if row["start__list_date"] is None else (row["start__rating"], row["start__list_date"])
            item = lists[row["snapshot__rating_list_id"]] = PlayerList(
                (english and row["snapshot__rating_list__name_en"]) or row["snapshot__rating_list__name"],
                row["snapshot__rating_list__slug"],
                row["rating"],
                row["events"],
                starting,
            )
        item.points.append((row["snapshot__as_of"], int(row["rating"])))  # whole points on the chart
        item.rating, item.events = row["rating"], row["events"]
    if not lists:
        return []
    # RatingChange.explanation's rule; a change of a list the player has no entry in is not shown (none should be).
    explanation = "explanation_ru" if language.startswith("ru") else "explanation_en"
    for row in _player_rows(
        f"gorbunov.player_changes.{explanation}",
        partial(_change_rows, explanation=explanation),
        (*CHANGE_FIELDS, "explanation"),
        player_id=player_id,
    ):
        item = lists.get(row["rating_list_id"])
        if item is not None:
            item.changes.append(row)
    return list(lists.values())


@dataclass
class TournamentRating:
    rating_list: RatingList
    changes: list[RatingChange]
    reason_code: str  # "", "not_approved", "format", "too_small", "problem", "waiting"
    waiting_for: dt.date | None = None
    minimum: int = 0


def tournament_ratings(*, tournament: Tournament, today: dt.date) -> list[TournamentRating]:
    """For each active Gorbunov list: the changes the tournament caused there, or why it is not rated (yet)."""
    if tournament.discipline != Discipline.CARD_GAMES:
        return []
    lists = list(gorbunov_lists())
    if not lists:
        return []
    changes_by_list: dict[int, list[RatingChange]] = {}
    for change in (
        RatingChange.objects.filter(tournament=tournament, rating_list__in=lists)
        .select_related("player", "snapshot")
        .order_by("details__M", "id")
    ):
        changes_by_list.setdefault(change.rating_list_id, []).append(change)
    places = sorted(tournament.results.values_list("place", flat=True))
    items = []
    for rating_list in lists:
        params = validate(rating_list.params)
        changes = changes_by_list.get(rating_list.pk, [])
        item = TournamentRating(rating_list, changes, "", minimum=params["min_participants"])
        if changes:
            pass
        elif tournament.card_format not in params["formats"]:
            item.reason_code = "format"
        elif tournament.status != TournamentStatus.APPROVED:
            item.reason_code = "not_approved"
        elif len(places) < params["min_participants"]:
            item.reason_code = "too_small"
        elif places != list(range(1, len(places) + 1)) or not tournament.k:
            item.reason_code = "problem"
        else:
            item.reason_code = "waiting"
            item.waiting_for = first_publication(rating_list=rating_list, tournament=tournament, today=today)
        if item.reason_code == "not_approved":
            item.waiting_for = first_publication(rating_list=rating_list, tournament=tournament, today=today)
        items.append(item)
    return items


def first_publication(*, rating_list: RatingList, tournament: Tournament, today: dt.date) -> dt.date:
    """The Monday of the first weekly publication that can rate ``tournament`` if it is approved by ``today``
    (rules/gorbunov.md, "Decision (late results)"): the week after it was played, or the next one to come when
    that week's list is published already."""
    first = week_start(tournament.end_date) + WEEK
    latest = rating_list.latest
    if latest is not None and latest >= first:
        current = week_start(today)  # a late result: the next publication to come
        first = current if latest < current else current + WEEK
    return first


# --- the list as a document of ``manage.py rate`` ------------------------------------------------------------------


def gorbunov_list_document(*, rating_list: RatingList, as_of: dt.date | None = None) -> dict:
    """What the site has published for ``rating_list`` as of ``as_of`` (the publication in force that day, or the
    newest), as exactly the document ``manage.py rate`` prints for the same history (``docs/rate-cli.md``):
    ``ratings`` (every player named: starting ratings, every rated player, and at 100 whoever played only in a
    tournament too small to be rated), ``changes`` in the order ``rate`` gives them, and ``excluded``."""
    from ratings.history import document_tournament_id, player_ids_map
    from tournaments.models import Result

    snapshots = RatingSnapshot.objects.filter(rating_list=rating_list)
    if as_of is not None:
        snapshots = snapshots.filter(as_of__lte=as_of)
    snapshot = snapshots.order_by("-as_of").first()
    ratings: dict[int, int] = {
        player_id: int(rating)
        for player_id, rating in StartingRating.objects.filter(rating_list=rating_list).values_list(
            "player_id", "rating"
        )
    }
    changes: list[dict] = []
    excluded: list[dict] = []
    if snapshot is not None:
        entries = RatingEntry.objects.filter(snapshot__rating_list=rating_list, snapshot__as_of__lte=snapshot.as_of)
        for player_id, rating in (
            entries.order_by("snapshot__as_of").values_list("player_id", "rating").iterator(chunk_size=20_000)
        ):
            ratings[player_id] = int(rating)
        summaries = list(
            RatingSnapshot.objects.filter(rating_list=rating_list, as_of__lte=snapshot.as_of).values_list(
                "summary", flat=True
            )
        )
        processed = [pk for summary in summaries for pk in (summary or {}).get("tournaments", [])]
        not_rated = {int(pk): reason for s in summaries for pk, reason in (s or {}).get("not_rated", {}).items()}
        heads = {
            pk: (week_start(end_date), end_date, pk, external_id)
            for pk, end_date, external_id in Tournament.objects.filter(pk__in=processed).values_list(
                "pk", "end_date", "external_id"
            )
        }
        order: dict[tuple[int, int], int] = {}
        rows = Result.objects.filter(tournament_id__in=processed).values_list("tournament_id", "player_id", "pk")
        for tournament_id, player_id, result_pk in rows.iterator(chunk_size=20_000):
            if player_id is not None:
                order[(tournament_id, player_id)] = result_pk
                ratings.setdefault(player_id, 100)
        stored = RatingChange.objects.filter(rating_list=rating_list, snapshot__as_of__lte=snapshot.as_of)
        items = []
        for tournament_id, player_id, before, delta, after, en, ru in stored.values_list(
            "tournament_id", "player_id", "before", "delta", "after", "explanation_en", "explanation_ru"
        ).iterator(chunk_size=20_000):
            key = (*heads[tournament_id][:3], order.get((tournament_id, player_id), 0))
            items.append((key, tournament_id, player_id, int(before), int(delta), int(after), en, ru))
        items.sort(key=lambda item: item[0])
        names = player_ids_map(ratings)
        tournament_ids = {pk: document_tournament_id(pk=pk, external_id=head[3]) for pk, head in heads.items()}
        for _key, tournament_id, player_id, before, delta, after, en, ru in items:
            changes.append(
                {
                    "tournament": tournament_ids[tournament_id],
                    "player": names[player_id],
                    "before": before,
                    "delta": delta,
                    "after": after,
                    "explanation": {"en": en, "ru": ru},
                }
            )
        for pk in sorted(not_rated, key=lambda pk: heads[pk][:3]):
            excluded.append({"tournament": tournament_ids[pk], "reason": not_rated[pk]})
    else:
        names = player_ids_map(ratings)
    document: dict = {"ratings": {names[pk]: rating for pk, rating in ratings.items()}, "changes": changes}
    if excluded:
        document["excluded"] = excluded
    return document
