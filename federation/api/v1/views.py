"""The operations of ``/api/v1/`` (see the package's docstring). Thin: the lists and the histories are read and
written to JSON by ``lists`` and ``history`` (built once per version of what they show, then answered from the
cache), the rest by ``reads`` and each system's selectors; the calculators are the ones the pages call."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Annotated, Literal

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from ninja import Path, Query
from pydantic import BeforeValidator, StringConstraints, WithJsonSchema

from federation import bounds, versions
from federation.api.common import ApiError, JsonApi, install_error_handlers
from federation.api.http import AnonymousRate, cached_json
from federation.api.v1 import history as history_reads
from federation.api.v1 import lists as list_reads
from federation.api.v1 import reads
from federation.api.v1.schemas import (
    ClubOut,
    ClubsOut,
    ClubTournamentsOut,
    DatesOut,
    ErrorsOut,
    HistoryOut,
    Language,
    ListOut,
    ListsOut,
    PlayerOut,
    PlayersOut,
    PlayerTournamentsOut,
    TournamentOut,
    TournamentsOut,
)
from federation.caching import answer_key
from federation.clubs import club_list, club_tournaments
from federation.models import Club, Player
from federation.selectors import player_list, player_results, public_tournaments
from ratings.dates import AskedDate
from ratings.engines.common import FieldError
from ratings.models import Engine, RatingList
from tournaments.models import Result

DESCRIPTION = """The federation's rating lists, players, clubs, tournaments and calculators, read-only and public.

- Every answer is JSON. Errors are `{"errors": [{"field": ..., "message": ...}]}` with the query parameter named.
- Lists are the same as their pages: `?date=YYYY-MM-DD` or `?week=YYYY-Www` gives the list in force then, and
  `message` says so when the list shown is not dated exactly so.
- Language: names, explanations, reasons, messages and error messages are in `?lang=ru` or `?lang=en`; without it,
  in the language of the `Accept-Language` header; Russian by default. Field names are never translated.
- `ETag` and `Last-Modified` come from what the answer shows (they change when it does); send `If-None-Match` or
  `If-Modified-Since` and get 304 when nothing changed. Anonymous clients get a rate limit: 429 with
  `Retry-After` (seconds).
- Version 1: fields may be added within v1; none is removed, renamed or changes its meaning (see the README).
"""


def request_language(request: HttpRequest) -> str:
    """``?lang=`` when it is one of the API's languages, else the one ``Accept-Language`` (or the site's language
    cookie) prefers, else Russian. (The site's pages take their language from their address instead, and
    ``LocaleMiddleware`` gives the API's addresses, which have no language prefix, Russian.)"""
    asked = request.GET.get("lang", "")
    if asked in ("ru", "en"):
        return asked
    code = translation.get_language_from_request(request) or settings.LANGUAGE_CODE
    return "en" if code.startswith("en") else "ru"


api = JsonApi(
    title="Federation ratings: public API",
    version="1.0",
    description=DESCRIPTION,
    urls_namespace="api_v1",
    docs_url="/docs/",
    openapi_url="/openapi.json",
    throttle=[AnonymousRate()],
    language_of=request_language,
)
install_error_handlers(api)

ERRORS = {400: ErrorsOut, 404: ErrorsOut, 429: ErrorsOut}
# Every bound the operations enforce on one parameter is in its schema (issue 27: seven requests valid by the
# document were refused); rules between parameters are in the operation's description. A schemathesis run over the
# document (tests/federation/api/test_v1_schema_fuzz.py) finds no request valid by it refused.
#: An ISO week: years 0001-9999, weeks 01-53 (a week 53 of a year that has 52 is the week after its week 52).
WEEK_PATTERN = r"^(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-W(0[1-9]|[1-4][0-9]|5[0-3])$"
WEEK = re.compile(WEEK_PATTERN)
#: Text a person types into a search box: no control characters (PostgreSQL refuses NUL; none is part of a name).
PRINTABLE = r"^[^\u0000-\u001f\u007f]*$"

Lang = Annotated[
    Language | None, Query(description="language of names and texts (default: Accept-Language's, else ru)")
]
PageNo = Annotated[int, Query(ge=1, le=1_000_000, description="page number, from 1")]
PerPage = Annotated[int, Query(ge=1, le=100, description="rows a page, at most 100")]


def _printable(value: str, field: str) -> str:
    """Query text reaches the database: no NUL (PostgreSQL refuses it), no control characters."""
    if any(ch < " " or ch == "\x7f" or "\ud800" <= ch <= "\udfff" for ch in value):
        raise ApiError(400, field, _("holds a control character"))
    return value


Search = Annotated[str, Query(max_length=100, pattern=PRINTABLE, description="words of a name, no control characters")]
#: The site's ids are PostgreSQL bigints: a larger number names nothing and is refused by the schema.
Id = Annotated[int, Path(ge=1, le=bounds.API_MAX_ID, description="the id")]


def _iso_date(value):
    """Dates are ISO text only (YYYY-MM-DD): not a number of seconds, not a date and time."""
    if isinstance(value, dt.date):
        return value
    try:
        if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise ValueError(value)
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(_("is not a date (YYYY-MM-DD)")) from None


IsoDate = Annotated[dt.date, BeforeValidator(_iso_date), WithJsonSchema({"type": "string", "format": "date"})]


_paging = reads.paging


def _asked(date: dt.date | None, week: str | None) -> AskedDate:
    if week:
        match = WEEK.match(week)
        if not match:
            message = _("“%(week)s” is not an ISO week (YYYY-Www, e.g. 2026-W10)") % {"week": week[:40]}
            raise ApiError(400, "week", message)
        year, number = int(match[1]), int(match[2])
        try:
            return AskedDate(dt.date.fromisocalendar(year, number, 1))
        except ValueError:  # week 53 of a year of 52 weeks: the Monday after its week 52
            monday = dt.date.fromisocalendar(year, 52, 1)
            return AskedDate(monday + dt.timedelta(days=7) if monday.year < dt.MAXYEAR else dt.date.max)
    return AskedDate(date)


def _no_list(slug: str) -> ApiError:
    return ApiError(404, "slug", _("there is no rating list “%(slug)s”") % {"slug": slug[:100]})


def _list_engines() -> dict[str, str]:
    """The engine of each public list by its slug (what decides the versions a list's answer is kept under), from the
    cache under the version of the lists (``RatingList`` is in the "ratings" scope), so that a warm answer reads no
    table; read from the database when the cache is down."""

    def engines() -> dict[str, str]:
        return dict(RatingList.objects.filter(is_active=True).values_list("slug", "engine"))

    key = answer_key(("ratings",), "list-engines")
    if key is None:
        return engines()
    return cache.get_or_set("api-list-engines:" + key.etag, engines, settings.API_CACHE_SECONDS)


def _list_or_404(slug: str) -> RatingList:
    found = reads.public_lists().filter(slug=slug).first()
    if found is None:
        raise _no_list(slug)
    return found


# --- rating lists ---------------------------------------------------------------------------------------------------


@api.get("/lists/", response={200: ListsOut, **ERRORS}, url_name="lists", tags=["lists"])
def lists(request, lang: Lang = None):
    """Every rating list of every system, with the date of its newest publication."""
    urls = reads.Urls(request_language(request))
    return {"lists": [reads.list_info(item, urls) for item in reads.public_lists()]}


@api.get("/lists/{slug}/", response={200: ListOut, **ERRORS}, url_name="list", tags=["lists"])
def rating_list(
    request: HttpRequest,
    slug: str,
    date: Annotated[IsoDate | None, Query(description="the list in force on this date (YYYY-MM-DD)")] = None,
    week: Annotated[
        str | None, Query(pattern=WEEK_PATTERN, description="the list of this ISO week (YYYY-Www); wins over date")
    ] = None,
    league: Annotated[Literal["amateur", "pro"], Query(description="preferans only: the league")] = "amateur",
    page: PageNo = 1,
    per_page: PerPage = 50,
    lang: Lang = None,
):
    """A list as of a date or week, as its page shows it: rank, player, rating, change, tournaments counted and the
    parts of the rating. Preferans and DIRS keep current leaderboards only (``as_of`` is null).

    Read through the list page's own selectors (``lists``), then answered from the cache until the list changes."""
    asked = _asked(date, week)
    language = request_language(request)
    engine = _list_engines().get(slug)
    if engine is None:
        raise _no_list(slug)
    parts = ("list", slug, asked.day, asked.error, league, page, per_page, language)
    return cached_json(
        request,
        scopes=list_reads.scopes(engine),
        parts=parts,
        build=lambda: list_reads.page_of(
            _list_or_404(slug), asked=asked, league=league, page=page, per_page=per_page, urls=reads.Urls(language)
        ),
    )


@api.get("/lists/{slug}/dates/", response={200: DatesOut, **ERRORS}, url_name="list_dates", tags=["lists"])
def list_dates(request, slug: str, page: PageNo = 1, per_page: PerPage = 100, lang: Lang = None):
    """The dates (and ISO weeks, for weekly lists) on which the list was published, newest first."""
    item = _list_or_404(slug)
    snapshots = item.snapshots.order_by("-as_of").only("as_of", "computed_at", "rating_list_id")
    count = snapshots.count()
    offset = (page - 1) * per_page
    weekly = item.engine == Engine.GORBUNOV
    return {
        "list": reads.list_info(item, reads.Urls(request_language(request))),
        "paging": _paging(count, page, per_page),
        "dates": [
            {"date": s.as_of, "week": reads.iso_week(s.as_of) if weekly else None, "computed_at": s.computed_at}
            for s in snapshots[offset : offset + per_page]
        ],
    }


# --- players --------------------------------------------------------------------------------------------------------


def _no_player(pk: int) -> ApiError:
    return ApiError(404, "id", _("there is no player %(id)s") % {"id": pk})


def _player_or_404(pk: int) -> Player:
    if not 0 < pk < 2**63:
        raise _no_player(pk)
    player = Player.objects.filter(pk=pk, is_bot=False).select_related("club").first()
    if player is None:
        raise _no_player(pk)
    return player


@api.get("/players/", response={200: PlayersOut, **ERRORS}, url_name="players", tags=["players"])
def players(request, search: Search = "", page: PageNo = 1, per_page: PerPage = 50, lang: Lang = None):
    """Players, searched as the site's search does it: every word matches part of the name in either alphabet
    ("иванов ив", "Ivanov", "ёлкин" = "елкин")."""
    found = player_list(search=_printable(search, "search")).order_by("last_name", "first_name", "pk")
    count = found.count()
    offset = (page - 1) * per_page
    urls = reads.Urls(request_language(request))
    return {
        "paging": _paging(count, page, per_page),
        "players": [reads.player_ref(p, urls) for p in found[offset : offset + per_page]],
    }


@api.get("/players/{id}/", response={200: PlayerOut, **ERRORS}, url_name="player", tags=["players"])
def player(request, id: Id, lang: Lang = None):
    """A player and their rating in every system they hold one in."""
    player = _player_or_404(id)
    urls = reads.Urls(request_language(request))
    ratings = reads.player_ratings(player, request_language(request))
    return {
        **reads.player_ref(player, urls),
        "club": player.club.name if player.club_id else "",
        "club_id": player.club_id,
        "display_club": player.club.display_name(urls.language) if player.club_id else "",
        "latin_name": player.full_name_latin if player.last_name_latin else "",
        "ratings": ratings,
    }


@api.get("/players/{id}/history/", response={200: HistoryOut, **ERRORS}, url_name="player_history", tags=["players"])
def player_history(
    request: HttpRequest,
    id: Id,
    system: Annotated[
        Literal["all", "gorbunov", "mahjong", "preferans", "dirs"], Query(description="one system, or all")
    ] = "all",
    page: PageNo = 1,
    per_page: PerPage = 50,
    lang: Lang = None,
):
    """Every change of the player's ratings, newest first, each with its explanation in the language asked.

    Read from every system's changes (``history``), then answered from the cache until one of them changes."""
    language = request_language(request)

    def build() -> dict:  # the player too: a warm answer reads no table
        player = _player_or_404(id)
        offset = (page - 1) * per_page
        counts, items = history_reads.counts_and_page(
            id, system=system, offset=offset, limit=per_page, language=language
        )
        count = sum(counts.values()) if system == "all" else counts[system]
        return {
            "player": reads.player_ref(player, reads.Urls(language)),
            "language": language,
            "paging": _paging(count, page, per_page),
            "history": items,
        }

    return cached_json(
        request, scopes=versions.SCOPES, parts=("history", id, system, page, per_page, language), build=build
    )


@api.get(
    "/players/{id}/tournaments/",
    response={200: PlayerTournamentsOut, **ERRORS},
    url_name="player_tournaments",
    tags=["players"],
)
def player_tournaments(request, id: Id, page: PageNo = 1, per_page: PerPage = 50, lang: Lang = None):
    """The player's results in public tournaments, newest first."""
    player = _player_or_404(id)
    results = player_results(player=player)
    count = results.count()
    offset = (page - 1) * per_page
    urls = reads.Urls(request_language(request))
    return {
        "player": reads.player_ref(player, urls),
        "paging": _paging(count, page, per_page),
        "tournaments": [
            {"tournament": reads.tournament_ref(r.tournament, urls), "place": r.place, "of": r.result_count}
            for r in results[offset : offset + per_page]
        ],
    }


# --- clubs ----------------------------------------------------------------------------------------------------------

#: A city as the clubs' list names it (any printable text, at most 100 characters).
City = Annotated[str, Query(max_length=100, pattern=PRINTABLE, description="the clubs of this city (its exact name)")]
CountryCode = Annotated[str, Query(pattern=r"^([A-Z]{2})?$", description="the clubs of this country (RU, DE...)")]


def _club_or_404(pk: int) -> Club:
    found = club_list().filter(pk=pk).first()
    if found is None:
        raise ApiError(404, "id", _("there is no club %(id)s") % {"id": pk})
    return found


@api.get("/clubs/", response={200: ClubsOut, **ERRORS}, url_name="clubs", tags=["clubs"])
def clubs(
    request, city: City = "", country: CountryCode = "", page: PageNo = 1, per_page: PerPage = 50, lang: Lang = None
):
    """Clubs by city, then name, as the clubs' page lists them, each with its number of players."""
    found = club_list()
    if city:
        found = found.filter(city=_printable(city, "city"))
    if country:
        found = found.filter(country=country)
    count = found.count()
    offset = (page - 1) * per_page
    urls = reads.Urls(request_language(request))
    return {
        "paging": _paging(count, page, per_page),
        "clubs": [reads.club_ref(club, urls) for club in found[offset : offset + per_page]],
    }


@api.get("/clubs/{id}/", response={200: ClubOut, **ERRORS}, url_name="club", tags=["clubs"])
def club(request, id: Id, lang: Lang = None):
    """A club as its page shows it: where and when it meets, whom to ask, its players, and their current rating in
    every list with the change this season (see ``season``).

    Read through the club page's own selectors, then answered from the cache until something it shows changes."""
    found = _club_or_404(id)
    language = request_language(request)
    return cached_json(
        request,
        scopes=versions.SCOPES,
        parts=("club", id, language),
        build=lambda: reads.club_detail(found, reads.Urls(language)),
    )


@api.get(
    "/clubs/{id}/tournaments/",
    response={200: ClubTournamentsOut, **ERRORS},
    url_name="club_tournaments",
    tags=["clubs"],
)
def club_tournament_list(request, id: Id, page: PageNo = 1, per_page: PerPage = 50, lang: Lang = None):
    """The public tournaments the club's players played, newest first, with how many of them played and their best
    place (a tournament has no club of its own)."""
    found = _club_or_404(id)
    tournaments = club_tournaments(club=found)
    count = tournaments.count()
    offset = (page - 1) * per_page
    urls = reads.Urls(request_language(request))
    rows = []
    for tournament in tournaments[offset : offset + per_page]:
        rows.append(
            {
                "tournament": reads.tournament_ref(tournament, urls),
                "club_players": tournament.club_players,
                "best_place": tournament.best_place,
            }
        )
    return {"club": reads.club_ref(found, urls), "paging": _paging(count, page, per_page), "tournaments": rows}


# --- tournaments ----------------------------------------------------------------------------------------------------


@api.get("/tournaments/", response={200: TournamentsOut, **ERRORS}, url_name="tournaments", tags=["tournaments"])
def tournaments(
    request,
    discipline: Annotated[Literal["ccg", "mahjong", "go", "preferans"] | None, Query(description="discipline")] = None,
    date_from: Annotated[IsoDate | None, Query(description="ending on or after")] = None,
    date_to: Annotated[IsoDate | None, Query(description="starting on or before")] = None,
    status: Annotated[
        Literal["finished", "running", "upcoming"] | None, Query(description="by the dates, against today")
    ] = None,
    search: Search = "",
    page: PageNo = 1,
    per_page: PerPage = 50,
    lang: Lang = None,
):
    """Public tournaments (approved by the federation), newest first."""
    found = public_tournaments()
    if discipline:
        found = found.filter(discipline=discipline)
    if date_from:
        found = found.filter(end_date__gte=date_from)
    if date_to:
        found = found.filter(start_date__lte=date_to)
    today = timezone.localdate()
    if status == "finished":
        found = found.filter(end_date__lt=today)
    elif status == "running":
        found = found.filter(start_date__lte=today, end_date__gte=today)
    elif status == "upcoming":
        found = found.filter(start_date__gt=today)
    for word in _printable(search, "search").split():
        found = found.filter(name__icontains=word)
    participants = Result.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    found = found.annotate(
        result_count=Subquery(participants.annotate(n=Count("pk")).values("n"), output_field=IntegerField())
    ).order_by("-end_date", "name", "pk")
    count = found.count()
    offset = (page - 1) * per_page
    urls = reads.Urls(request_language(request))
    return {
        "paging": _paging(count, page, per_page),
        "tournaments": [reads.tournament_ref(t, urls) for t in found[offset : offset + per_page]],
    }


@api.get("/tournaments/{id}/", response={200: TournamentOut, **ERRORS}, url_name="tournament", tags=["tournaments"])
def tournament(request, id: Id, lang: Lang = None):
    """A public tournament: its results, whether and why it counts in each list, and for Go its rounds, pairings and
    standings."""
    if not 0 < id < 2**63:
        raise ApiError(404, "id", _("there is no tournament %(id)s") % {"id": id})
    found = public_tournaments().filter(pk=id).first()
    if found is None:
        raise ApiError(404, "id", _("there is no tournament %(id)s") % {"id": id})
    return reads.tournament_detail(found, reads.Urls(request_language(request)))


# --- calculators ----------------------------------------------------------------------------------------------------


def _numbers(raw: str, name: str, low: float, high: float) -> list[float]:
    values = []
    for part in raw.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            value = float(part)
        except ValueError:
            raise ApiError(400, name, _("“%(value)s” is not a number") % {"value": part[:40]}) from None
        if not math.isfinite(value) or not low <= value <= high:
            raise ApiError(
                400, name, _("a rating is between %(low)s and %(high)s") % {"low": f"{low:g}", "high": f"{high:g}"}
            )
        values.append(value)
    if not values:
        raise ApiError(400, name, _("give at least one rating"))
    return values


#: A rating of the preferans calculator, 0 to 10,000 (``selectors.CALC_MIN_RATING``..``CALC_MAX_RATING``).
_RATING = r"(10000(\.0+)?|[0-9]{1,4}(\.[0-9]+)?)"
#: 1 to 20 of them, separated by commas or semicolons: 20 × 20 is the calculator's largest grid (``CALC_MAX_CELLS``).
NumberList = Annotated[str, StringConstraints(max_length=2000, pattern=rf"^ *{_RATING}( *[,;] *{_RATING}){{0,19}} *$")]


@api.get("/calculators/preferans/", url_name="calc_preferans", tags=["calculators"], response={200: dict, **ERRORS})
def calc_preferans(
    request,
    ratings: Annotated[NumberList, Query(description="1 to 20 player ratings, 0 to 10000, comma-separated (rows)")],
    tables: Annotated[NumberList, Query(description="1 to 20 table ratings, 0 to 10000, comma-separated (columns)")],
    whists: Annotated[int, Query(ge=-1000, le=1000, description="the player's whists in the deal")],
):
    """The SmartPref-style grid: the change of a player rated ``ratings[i]`` at a table rated ``tables[j]`` scoring
    ``whists``, from the same engine that rates the deals."""
    from ratings.preferans import selectors

    rows = _numbers(ratings, "ratings", selectors.CALC_MIN_RATING, selectors.CALC_MAX_RATING)
    columns = _numbers(tables, "tables", selectors.CALC_MIN_RATING, selectors.CALC_MAX_RATING)
    if len(rows) * len(columns) > selectors.CALC_MAX_CELLS:
        message = _("the grid is too large: at most %(cells)s cells") % {"cells": selectors.CALC_MAX_CELLS}
        raise ApiError(400, "ratings", message)
    grid = selectors.calculator_grid(ratings=rows, table_ratings=columns, whists=whists)
    return {"ratings": rows, "tables": columns, "whists": whists, "cells": grid}


#: The Gorbunov calculator's largest tournament (``ratings.gorbunov.calculator.MAX_PARTICIPANTS``).
GORBUNOV_MAX_PARTICIPANTS = 256
#: The formats a card tournament may have (``tournaments.models.CardFormat``), or none.
CardFormatName = Literal["", "constructed", "limited", "sealed", "draft", "combined", "arena"]


@api.get("/calculators/gorbunov/", url_name="calc_gorbunov", tags=["calculators"], response={200: dict, **ERRORS})
def calc_gorbunov(
    request,
    u: Annotated[int, Query(ge=2, le=GORBUNOV_MAX_PARTICIPANTS, description="participants")],
    rt: Annotated[
        float,
        Query(
            ge=100,
            le=bounds.GORBUNOV_RATING_MAX,
            allow_inf_nan=False,
            description="the field's strength Rt: at least (rating + 100 × (u − 1)) / u, since nobody is below 100",
        ),
    ],
    k: Annotated[int, Query(ge=1, le=bounds.GORBUNOV_K_MAX, description="the tournament's coefficient K")],
    rating: Annotated[int, Query(ge=100, le=bounds.GORBUNOV_RATING_MAX, description="your rating")] = 100,
    format: Annotated[CardFormatName, Query(description="card format; empty: none in particular")] = "",
    list: Annotated[str, Query(max_length=60, description="the list's slug (its parameters; default rules else)")] = "",
    lang: Lang = None,
):
    """ "What if I take place M": your change for every place of a tournament of U players, from the engine."""
    from ratings.gorbunov.calculator import changes_for_every_place

    rating_list = RatingList.objects.filter(slug=list, engine=Engine.GORBUNOV).first() if list else None
    try:
        return changes_for_every_place(
            rating_list=rating_list,
            u=u,
            rt=rt,
            k=k,
            rating=rating,
            card_format=format,
            day=timezone.localdate(),
            language=request_language(request),
        )
    except FieldError as error:
        raise ApiError(400, error.field, error.message) from None


#: The mahjong calculator's bounds (``ratings.mahjong.calculator``) and the page's default number of hanchans.
MAHJONG_MAX_PLAYERS, MAHJONG_MAX_HANCHANS, MAHJONG_DEFAULT_HANCHANS = 2000, 100, 8
_STAGE = r"[1-9][0-9]{0,2}/[1-9][0-9]{0,3}"
STAGES_PATTERN = rf"^ *({_STAGE}( *[,;] *{_STAGE})*)? *$"


@api.get("/calculators/mahjong/", url_name="calc_mahjong", tags=["calculators"], response={200: dict, **ERRORS})
def calc_mahjong(
    request,
    players: Annotated[int, Query(ge=2, le=MAHJONG_MAX_PLAYERS, description="players")],
    hanchans: Annotated[
        int | None,
        Query(ge=1, le=MAHJONG_MAX_HANCHANS, description="hanchans, without stages (default 8, as on the page)"),
    ] = None,
    a: Annotated[float, Query(ge=0, le=100, allow_inf_nan=False, description="part A, percent")] = 100,
    stages: Annotated[
        str,
        Query(
            max_length=500,
            pattern=STAGES_PATTERN,
            description='the stages of a tournament with cut-offs as hanchans/players, e.g. "10/28, 10/8": the first '
            "stage's players are the tournament's, each stage's players at most the stage before's, and the "
            "hanchans at most 100 in all",
        ),
    ] = "",
):
    """The W coefficient of a tournament (RR/CRR), stage by stage, from the engine."""
    from ratings.engines.common import EngineError
    from ratings.mahjong import calculator

    query = {"players": str(players), "hanchans": str(MAHJONG_DEFAULT_HANCHANS if hanchans is None else hanchans)}
    query["a"] = repr(a)
    if stages:
        query["stages"] = stages
    try:
        return calculator.calculate(calculator.parse(query))
    except (EngineError, FieldError) as error:
        raise ApiError(400, error.field, error.message) from None


@api.get("/calculators/go-handicap/", url_name="calc_go", tags=["calculators"], response={200: dict, **ERRORS})
def calc_go(
    request,
    a: Annotated[int, Query(ge=0, le=10_000, description="player A's rating (on the DIRS scale, above 300 is 300)")],
    b: Annotated[int, Query(ge=0, le=10_000, description="player B's rating (on the DIRS scale, above 300 is 300)")],
    scale: Annotated[Literal["tournament", "dirs"], Query(description="the rating scale")] = "tournament",
    half_stone: Annotated[bool, Query(description="half-stone step (FUS)")] = False,
    lang: Lang = None,
):
    """Stones, komi and who takes black, on the tournament scale or the DIRS scale.

    The DIRS scale ends at 300 and every rating from 290 up is 9 dan (`rules/go.md`, part 2): a larger number asked on
    it is read as 300, and ``note`` says so."""
    from ratings.dirs.models import DIRS_RATING_MAX
    from tournaments.go.calculator import handicap

    note = ""
    if scale == "dirs" and max(a, b) > DIRS_RATING_MAX:
        note = _("The DIRS scale ends at 300 (9 dan): a rating above it is read as 300.")
        a, b = min(a, DIRS_RATING_MAX), min(b, DIRS_RATING_MAX)
    try:
        answer = handicap(scale=scale, a=a, b=b, half_stone=half_stone)
        return {**answer, "note": note} if note else answer
    except FieldError as error:
        raise ApiError(400, error.field, error.message) from None
