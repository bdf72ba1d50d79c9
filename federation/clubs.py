"""Reads of the clubs' pages (``/clubs/``, ``/clubs/<id>/``) and of the API's clubs: the list by city, and a club's
players with their current ratings in every system, their movement this season, and the tournaments they played.

A bounded number of queries whatever the number of players, lists or tournaments (``club_ratings``: ten at most;
tests/federation/test_clubs.py holds the bound). The current ratings are those the player's page shows: each dated
list's newest publication (Gorbunov, mahjong RR/CRR/online, ``ratings.mahjong.selectors.latest_snapshots`` as the
mahjong section reads it), and the current DIRS and preferans ratings.

Decisions (the issue left them open):

- **The club's players** are the players whose profile names the club (``Player.club``), bots left out. A DIRS
  rating's own club (``DirsRating.club``, the club where the player's club games are rated) is not membership.
- **Its tournaments**: a tournament has no club or venue of its own, so a club's tournaments are the public
  (approved) tournaments its players played, newest first, with how many of them played and their best place.
- **The season** is the calendar year of the federation's date today: it starts on 1 January. A player's movement
  this season, per list:

  - a dated list (Gorbunov, mahjong): the current rating minus the rating in the list's last publication before
    1 January (for Gorbunov, whose older weeks hold only the players who moved, the player's newest entry up to
    then; for mahjong, the entry in the list in force on 31 December). Not in that list then: ``None``, shown as
    "new";
  - DIRS: the sum of what the club games dated this season changed (0 without one);
  - preferans: the sum of the changes of the deals of games played this season (0 without one).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Exists, F, IntegerField, Min, OuterRef, Q, QuerySet, Sum, Value
from django.db.models.functions import Replace
from django.utils import timezone

from federation.models import Club, Player
from federation.selectors import public_tournaments
from tournaments.models import Tournament

Number = Decimal | float | int


def season_start(today: dt.date) -> dt.date:
    """The first day of the season ``today`` is in: 1 January (see the module's decisions)."""
    return dt.date(today.year, 1, 1)


def club_list() -> QuerySet[Club]:
    """Every club with its number of players (people, no bots), by city then name: the list groups a city's clubs.
    ``sort_name`` is the name without its quotes («Дракон» sorts with the Д, not before the А)."""
    return Club.objects.annotate(
        player_count=Count("players", filter=Q(players__is_bot=False)),
        sort_name=Replace(Replace("name", Value("«"), Value("")), Value("»"), Value("")),
    ).order_by("city", "sort_name", "pk")


def club_places() -> tuple[list[str], list[str]]:
    """The cities and the countries of the clubs, for the list's filter: one query."""
    cities, countries = set(), set()
    for city, country in Club.objects.order_by().values_list("city", "country").distinct():
        if city:
            cities.add(city)
        countries.add(country)
    return sorted(cities), sorted(countries)


def public_club(pk: int) -> Club | None:
    return Club.objects.filter(pk=pk).first()


def club_players(*, club: Club) -> QuerySet[Player]:
    """The club's players (people, no bots) by name, with what the page shows of each."""
    return Player.objects.filter(club=club, is_bot=False).order_by("search_name", "pk")


def club_tournaments(*, club: Club) -> QuerySet[Tournament]:
    """The public tournaments the club's players played, newest first, each with ``club_players`` (how many of them
    played) and ``best_place`` (the best place one of them took). The filter comes before the annotations, so they
    count the club's results only (Django's "order of annotate() and filter()")."""
    return (
        public_tournaments()
        .filter(results__player__club=club, results__player__is_bot=False)
        .annotate(club_players=Count("results"), best_place=Min("results__place"))
        .order_by("-end_date", "name", "pk")
    )


@dataclass
class ClubRating:
    """One player's current rating in one list: ``rank`` in the whole list (None where the list keeps none),
    ``label`` (the DIRS kyu/dan, the preferans league) and ``season`` (the change this season; None: not rated at
    the season's start)."""

    player: Player
    rating: Number
    rank: int | None = None
    label: str = ""
    season: Number | None = None


@dataclass
class ClubList:
    """One list the club's players hold a rating in, with the rows best first."""

    rating_list: object  # ratings.models.RatingList
    name: str
    url: str
    engine: str
    places: int
    as_of: dt.date | None = None
    rows: list[ClubRating] = field(default_factory=list)


#: Decimals a rating is shown with, by engine (Gorbunov ratings are whole points; DIRS a three-digit number).
PLACES = {"gorbunov": 0, "dirs": 0}


def club_ratings(*, club: Club, players: list[Player], language: str, today: dt.date | None = None) -> list[ClubList]:
    """Every active list in its order, with the current rating of each of ``players`` (the club's, as
    ``club_players`` read them) who holds one, best first; lists none of them is in are left out.

    Queries: the lists; the dated lists' current and season-start publications (two); the players' entries in them;
    the Gorbunov entries up to the season's start; DIRS ratings and their season (three); preferans ratings and
    their season (two). Nine or ten whatever the number of players."""
    from ratings.dirs.models import DirsGame, DirsRating
    from ratings.engines import dirs as dirs_engine
    from ratings.mahjong.selectors import latest_snapshots
    from ratings.mahjong.storage import rows_up_to
    from ratings.models import Engine, RatingEntry, RatingList
    from ratings.preferans.models import DealResult, League, PreferansRating

    if not players:
        return []
    today = today or timezone.localdate()
    start = season_start(today)
    by_pk = {player.pk: player for player in players}
    lists = list(RatingList.objects.filter(is_active=True).order_by("ordering", "slug"))
    dated = [item for item in lists if item.engine not in (Engine.DIRS, Engine.PREFERANS)]
    shown: dict[int, ClubList] = {
        item.pk: ClubList(
            rating_list=item,
            name=item.display_name(language),
            url=item.get_absolute_url(),
            engine=item.engine,
            places=PLACES.get(item.engine, 2),
        )
        for item in lists
    }
    members = Q(player__club=club, player__is_bot=False)

    if dated:
        current = latest_snapshots(lists=dated)
        mahjong = [item for item in dated if item.engine != Engine.GORBUNOV]
        wanted = {s.pk: s for s in current.values()}
        started: dict[tuple[int, int], Decimal] = {}
        now: list[tuple[int, int, Decimal, int]] = []
        entries = RatingEntry.objects.filter(members, snapshot_id__in=list(wanted)).order_by()
        for snapshot_id, player_id, rating, rank in entries.values_list("snapshot_id", "player_id", "rating", "rank"):
            now.append((wanted[snapshot_id].rating_list_id, player_id, rating, rank))
        for item in mahjong:  # each member's newest row before the season (issue 29: older dates keep their changes)
            rows = rows_up_to(item.pk, start - dt.timedelta(days=1), listed=True).filter(members).order_by()
            for player_id, rating in rows.values_list("player_id", "rating"):
                started[item.pk, player_id] = rating
        gorbunov = [item.pk for item in dated if item.engine == Engine.GORBUNOV]
        if gorbunov:
            up_to = RatingEntry.objects.filter(
                members, snapshot__rating_list_id__in=gorbunov, snapshot__as_of__lt=start
            )
            later = RatingEntry.objects.filter(
                snapshot__rating_list_id=OuterRef("snapshot__rating_list_id"),
                player_id=OuterRef("player_id"),
                snapshot__as_of__gt=OuterRef("snapshot__as_of"),
                snapshot__as_of__lt=start,
            )
            for list_id, player_id, rating in (
                up_to.exclude(Exists(later)).order_by().values_list("snapshot__rating_list_id", "player_id", "rating")
            ):
                started[list_id, player_id] = rating
        for list_id, player_id, rating, rank in now:
            if player_id not in by_pk:
                continue
            item = shown[list_id]
            item.as_of = current[list_id].as_of
            start_rating = started.get((list_id, player_id))
            season = None if start_rating is None else rating - start_rating
            item.rows.append(ClubRating(by_pk[player_id], rating, rank=rank, season=season))

    dirs_lists = [item for item in lists if item.engine == Engine.DIRS][:1]
    if dirs_lists:
        ratings = DirsRating.objects.filter(members).order_by().values_list("player_id", "rating")
        moved: dict[int, int] = defaultdict(int)
        games = DirsGame.objects.filter(date__gte=start).order_by()
        for colour in ("white", "black"):
            change = F(f"{colour}_after") - F(f"{colour}_before")
            rows = (
                games.filter(**{f"{colour}__club": club})
                .values(f"{colour}_id")
                .annotate(change=Sum(change, output_field=IntegerField()))
                .values_list(f"{colour}_id", "change")
            )
            for player_id, delta in rows:
                moved[player_id] += delta or 0
        item = shown[dirs_lists[0].pk]
        for player_id, rating in ratings:
            if player_id not in by_pk:
                continue
            label = dirs_engine.rank_of(max(int(rating), 0)).short
            item.rows.append(ClubRating(by_pk[player_id], rating, label=label, season=moved.get(player_id, 0)))

    preferans_lists = [item for item in lists if item.engine == Engine.PREFERANS][:1]
    if preferans_lists:
        leagues = dict(League.choices)
        ratings = PreferansRating.objects.filter(members).order_by().values_list("player_id", "rating", "league")
        moved_by = dict(
            DealResult.objects.filter(members, deal__game__played_at__gte=_day_start(start))
            .order_by()
            .values("player_id")
            .annotate(change=Sum("delta"))
            .values_list("player_id", "change")
        )
        item = shown[preferans_lists[0].pk]
        for player_id, rating, league in ratings:
            if player_id not in by_pk:
                continue
            season = moved_by.get(player_id) or 0.0
            item.rows.append(
                ClubRating(by_pk[player_id], rating, label=str(leagues.get(league, league)), season=season)
            )

    found = []
    for item in shown.values():
        if item.rows:
            item.rows.sort(key=lambda row: (-row.rating, row.player.search_name, row.player.pk))
            found.append(item)
    return found


def _day_start(day: dt.date) -> dt.datetime:
    """Midnight of ``day`` in the federation's time zone."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))
