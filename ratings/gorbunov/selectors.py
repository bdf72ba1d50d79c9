"""Reads of the Gorbunov lists for the pages: a bounded number of queries whatever the number of players.

The newest snapshot of a list holds every player; an older one only the players whose rating moved that week
(see ``services``). The list as of an older week is each player's newest entry up to that week, and a player's rank
that week is one more than the number of those entries rated higher.
"""

from __future__ import annotations

import bisect
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    FilteredRelation,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from federation.latin import display
from federation.models import Player
from ratings.change_texts import explanation_of, text_of
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


def published_mondays(*, rating_list) -> list:
    """The Mondays of the list's publications, newest first: the choices of the list page's week select."""
    return list(
        RatingSnapshot.objects.filter(rating_list=rating_list).order_by("-as_of").values_list("as_of", flat=True)
    )


def shown_list_snapshots(*, slug: str) -> QuerySet[RatingSnapshot]:
    """The publications of the active Gorbunov list ``slug``, one per rating week (``ratings.dates.shown_list`` picks
    the one to show), read with their list, with ``stored_players`` (how many players the list had that week, as the
    publication stored it in its ``summary``), ``stored_moved`` (how many of them it moved or brought in), ``newest``
    (whether no later week is published) and ``first`` (whether no earlier week is: the list is new)."""
    later = RatingSnapshot.objects.filter(rating_list_id=OuterRef("rating_list_id"), as_of__gt=OuterRef("as_of"))
    earlier = RatingSnapshot.objects.filter(rating_list_id=OuterRef("rating_list_id"), as_of__lt=OuterRef("as_of"))
    return (
        RatingSnapshot.objects.filter(rating_list__slug=slug, rating_list__engine=Engine.GORBUNOV)
        .filter(rating_list__is_active=True)
        .select_related("rating_list")
        .defer("summary")
        .annotate(
            stored_players=KT("summary__players"),
            stored_moved=KT("summary__moved"),
            newest=~Exists(later),
            first=~Exists(earlier),
        )
    )


@dataclass
class ListRows:
    """A Gorbunov list as of one publication (see the module): ``entries``, each with ``change`` (its change that
    week: 0 for a player who did not move, None for a newcomer), and ``rank(entry)`` among all the week's players."""

    snapshot: RatingSnapshot
    newest: bool
    entries: QuerySet[RatingEntry]

    def rank(self, entry: RatingEntry) -> int:
        """The newest list has its ranks stored; an older week's rank is one more than the number of players rated
        higher that week (equal ratings, equal ranks)."""
        if self.newest:
            return entry.rank
        ratings, higher = self._higher
        return higher[bisect.bisect_left(ratings, -entry.rating)] + 1

    def delta(self, entry) -> Decimal | None:
        """What ``entries`` give as ``change``, for an entry read as values (the public API)."""
        return entry.delta if entry.snapshot_id == self.snapshot.pk else 0

    @cached_property
    def _higher(self) -> tuple[list[Decimal], list[int]]:
        """The week's ratings, negated and ascending, and how many players are rated higher than each: one grouped
        query, a few hundred rows whatever the number of players."""
        counts = _week_entries(self.snapshot, newest=False).values("rating").annotate(players=Count("pk"))
        ratings, higher, above = [], [], 0
        for rating, players in counts.order_by("-rating").values_list("rating", "players"):
            ratings.append(-rating)
            higher.append(above)
            above += players
        return ratings, higher


def whole_week(monday: dt.date) -> bool:
    """Whether the publication of ``monday`` holds every player (the first Monday of January and of July), so that a
    later week's list reads half a year of changes at most (issue 29)."""
    return monday.month in (1, 7) and monday.day <= 7


def whole_before(rating_list_id, as_of) -> Coalesce:
    """The date of the newest publication up to ``as_of`` that holds every player (the earliest date when none), as
    an expression: a subquery of the query that reads the rows from it. ``rating_list_id`` and ``as_of`` may be
    values or ``OuterRef``s."""
    found = RatingSnapshot.objects.filter(rating_list_id=rating_list_id, as_of__lte=as_of, summary__whole=True)
    return Coalesce(Subquery(found.order_by("-as_of").values("as_of")[:1]), Value(dt.date.min))


def _week_entries(snapshot: RatingSnapshot, *, newest: bool) -> QuerySet[RatingEntry]:
    """Each player's newest entry up to ``snapshot``: the snapshot's own when it is the newest (it holds everyone)."""
    if newest:
        return RatingEntry.objects.filter(snapshot_id=snapshot.pk)
    # Nothing before the newest whole week up to it is needed: it holds every player (``whole_week``).
    up_to = RatingEntry.objects.filter(
        snapshot__rating_list_id=snapshot.rating_list_id,
        snapshot__as_of__lte=snapshot.as_of,
        snapshot__as_of__gte=whole_before(snapshot.rating_list_id, snapshot.as_of),
    )
    later = up_to.filter(player_id=OuterRef("player_id"), snapshot__as_of__gt=OuterRef("snapshot__as_of"))
    return up_to.exclude(Exists(later))


def list_rows(*, snapshot: RatingSnapshot, newest: bool) -> ListRows:
    """The rows of a Gorbunov list as of ``snapshot`` (``newest``: whether it is the list's newest publication), with
    what its table and download show of each player and club."""
    entries = _week_entries(snapshot, newest=newest)
    change = F("delta")
    if not newest:  # an entry of an earlier week: the player did not move this week
        change = Case(When(snapshot_id=snapshot.pk, then=F("delta")), default=Value(Decimal(0)))
    entries = (
        entries.annotate(change=change)
        .select_related("player__club")
        .only("rank", "rating", "delta", "events", "snapshot_id", "player", "player__club", *_PLAYER_FIELDS)
    )
    return ListRows(snapshot=snapshot, newest=newest, entries=entries)


#: What a list's table and download show of a player: the name in either alphabet, the city and the club's name.
_PLAYER_FIELDS = (
    *("player__last_name", "player__first_name", "player__last_name_latin", "player__first_name_latin"),
    *("player__city", "player__country", "player__club__name", "player__club__name_en"),
)


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
    """One Gorbunov list of a player's page, as plain values (``sections.player_section`` shows them)."""

    name: str
    slug: str
    rating: Decimal
    events: int
    #: The rating the player started from, carried over from the federation's list of ``starting_date`` (if any).
    starting_rating: Decimal | None
    starting_date: dt.date | None
    #: (Monday, rating) of every publication that moved the player, oldest first.
    points: list[tuple[dt.date, int]] = field(default_factory=list)
    #: The changes, newest first: dicts of ``CHANGE_FIELDS`` and "explanation" (in the page's language).
    changes: list[dict] = field(default_factory=list)
    #: The player's place in the newest publication and the change against the week before (None: new in the list).
    rank: int | None = None
    delta: Decimal | None = None


#: What a change's row and the chart's events show.
CHANGE_FIELDS = (
    *("rating_list_id", "tournament_id", "tournament__name", "tournament__name_en"),
    *("event_date", "before", "delta", "details"),
)


def player_lists(*, player_id: int, language: str) -> list[PlayerList]:
    """Every active Gorbunov list a player has a rating in, in the lists' order: the rating, its history, the
    starting rating and the changes, read as plain values in two queries (one for a player with none)."""
    entries = (
        RatingEntry.objects.filter(player_id=player_id, snapshot__rating_list__engine=Engine.GORBUNOV)
        .filter(snapshot__rating_list__is_active=True)
        .annotate(
            start=FilteredRelation(
                "snapshot__rating_list__starting_ratings",
                condition=Q(snapshot__rating_list__starting_ratings__player_id=player_id),
            )
        )
        .order_by("snapshot__rating_list__ordering", "snapshot__rating_list_id", "snapshot__as_of")
        .values_list(
            *("snapshot__rating_list_id", "snapshot__rating_list__name", "snapshot__rating_list__name_en"),
            *("snapshot__rating_list__slug", "snapshot__as_of", "rating", "events"),
            *("start__rating", "start__list_date", "rank", "delta"),
        )
    )
    lists: dict[int, PlayerList] = {}
    for list_id, name, name_en, slug, as_of, rating, events, starting_rating, starting_date, rank, delta in entries:
        item = lists.get(list_id)
        if item is None:
            name = display(name, name_en, language=language)  # RatingList.display_name's rule
            item = lists[list_id] = PlayerList(name, slug, rating, events, starting_rating, starting_date)
        item.points.append((as_of, int(rating)))  # whole points on the chart
        item.rating, item.events, item.rank, item.delta = rating, events, rank, delta  # the newest entry wins
    if not lists:
        return []
    explanation = "explanation_ru" if language.startswith("ru") else "explanation_en"  # RatingChange.explanation's rule
    changes = (
        RatingChange.objects.filter(player_id=player_id, rating_list_id__in=list(lists))
        .order_by("-event_date", "-id")
        .values(*CHANGE_FIELDS, explanation=F(explanation))
    )
    for change in changes:
        change["explanation"] = text_of(
            change["explanation"], change["details"], before=change["before"], delta=change["delta"], language=language
        )
        # The tournament's name in the reader's alphabet (Tournament.display_name's rule), under the key pages read.
        change["tournament__name"] = display(
            change["tournament__name"], change["tournament__name_en"] or "", language=language
        )
        lists[change["rating_list_id"]].changes.append(change)
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
        for tournament_id, player_id, before, delta, after, en, ru, details in stored.values_list(
            "tournament_id", "player_id", "before", "delta", "after", "explanation_en", "explanation_ru", "details"
        ).iterator(chunk_size=20_000):
            if not en:  # kept as numbers (issue 29): the engine writes the texts
                explained = explanation_of(details, before=before, delta=delta)
                en, ru = (explained.en, explained.ru) if explained is not None else ("", "")
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
