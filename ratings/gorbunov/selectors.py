"""Reads of the Gorbunov lists for the pages: a bounded number of queries whatever the number of players.

The newest snapshot of a list holds every player; an older one only the players whose rating moved that week
(see ``services``). The list as of an older week is each player's newest entry up to that week, picked with a
window function (``ROW_NUMBER() OVER (PARTITION BY player ORDER BY as_of DESC) = 1``), and ranks come from all the
ratings of that week.
"""

from __future__ import annotations

import bisect
import datetime as dt
from dataclasses import dataclass

from django.db.models import F, Max, QuerySet, Window
from django.db.models.functions import RowNumber

from federation.models import Player
from federation.selectors import player_search
from ratings.engines.gorbunov import week_start
from ratings.gorbunov.params import validate
from ratings.models import Engine, RatingChange, RatingEntry, RatingList, RatingSnapshot
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
    """A list's publications, one per rating week (``ratings.dates.list_for_date`` picks the one to show)."""
    return RatingSnapshot.objects.filter(rating_list=rating_list).defer("summary")


def is_newest(snapshot: RatingSnapshot) -> bool:
    return not RatingSnapshot.objects.filter(rating_list_id=snapshot.rating_list_id, as_of__gt=snapshot.as_of).exists()


@dataclass
class ListView:
    """The entries of a list as of one publication and how to rank them."""

    snapshot: RatingSnapshot
    newest: bool
    entries: QuerySet[RatingEntry]
    _ascending: list[float] | None = None

    def rank(self, entry: RatingEntry) -> int:
        if self.newest:
            return entry.rank
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


def list_view(*, snapshot: RatingSnapshot, search: str = "", city: str = "", club_id: int | None = None) -> ListView:
    newest = is_newest(snapshot)
    entries = RatingEntry.objects.filter(snapshot=snapshot) if newest else _latest_entries(snapshot)
    if search or city or club_id:
        players = Player.objects.all()
        if city:
            players = players.filter(city=city)
        if club_id:
            players = players.filter(club_id=club_id)
        if search:
            players = player_search(queryset=players, search=search)
        entries = entries.filter(player__in=players.values("pk"))
    entries = entries.select_related("player__club")
    return ListView(snapshot=snapshot, newest=newest, entries=entries)


# --- the player's and the tournament's sections --------------------------------------------------------------------


@dataclass
class PlayerRating:
    rating_list: RatingList
    current: RatingEntry | None
    points: list[tuple[str, int]]
    changes: list[RatingChange]


def player_ratings(*, player: Player) -> list[PlayerRating]:
    """Every Gorbunov rating of a player: the newest entry, the history points and the changes, in three queries."""
    entries = (
        RatingEntry.objects.filter(player=player, snapshot__rating_list__engine=Engine.GORBUNOV)
        .select_related("snapshot__rating_list")
        .order_by("snapshot__rating_list__ordering", "snapshot__rating_list_id", "snapshot__as_of")
    )
    by_list: dict[int, PlayerRating] = {}
    for entry in entries:
        rating_list = entry.snapshot.rating_list
        if not rating_list.is_active:
            continue
        item = by_list.setdefault(rating_list.pk, PlayerRating(rating_list, None, [], []))
        item.points.append((entry.snapshot.as_of.isoformat(), int(entry.rating)))
        item.current = entry
    if not by_list:
        return []
    changes = (
        RatingChange.objects.filter(player=player, rating_list_id__in=list(by_list))
        .select_related("tournament", "snapshot")
        .order_by("-event_date", "-id")
    )
    for change in changes:
        by_list[change.rating_list_id].changes.append(change)
    return list(by_list.values())


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
