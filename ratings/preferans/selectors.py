"""Reads of the preferans rating for the pages and the API: a bounded number of queries whatever the length.

Explanations are not stored as text: each ``DealResult`` keeps the player's rating before the deal, whether they
were Pro and their bot cap, and the engine explains the deal again from the rows of everyone at the table
(``deal_explanations``), with the very formula that rated it. The settings are the preferans list's parameters
(``services.rating_settings``), which cannot change once a deal is rated, so an explanation never drifts from the
stored numbers.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import NamedTuple

from django.db import connection
from django.db.models import Count, QuerySet, Sum

from federation.models import Player
from federation.selectors import player_search
from federation.tables import listed
from ratings.engines.common import Explanation
from ratings.engines.preferans import (
    AMATEUR,
    PRO,
    DealOutcome,
    PlayerState,
    PreferansSettings,
    deal_delta,
    rate_deal,
)
from ratings.preferans.models import (
    Deal,
    DealResult,
    Game,
    GameServer,
    League,
    LeagueCount,
    PreferansRating,
    Seat,
)
from ratings.preferans.services import bound_cursor, rating_settings
from ratings.preferans.services.rating_list import settings_from_text

#: The calculator's bounds: ratings and whists a visitor may ask about.
CALC_MIN_RATING = 0.0
CALC_MAX_RATING = 10_000.0
CALC_MAX_WHISTS = 1_000
CALC_MAX_CELLS = 400


def leaderboard(*, league: str = League.AMATEUR, search: str = "") -> QuerySet[PreferansRating]:
    """The league's players (no bots), best first; the table sorts by current or by highest rating."""
    ratings = listed(
        PreferansRating.objects.filter(league=league, player__is_bot=False)
        .select_related("player", "player__club")
        .order_by("-rating", "player_id"),
        "rating",
        "max_rating",
        "league",
        "deals",
        club="player__club",
    )
    if search:
        players = player_search(queryset=Player.objects.filter(is_bot=False), search=search)
        ratings = ratings.filter(player__in=players)
    return ratings


def league_counts() -> dict[str, int]:
    """Players (no bots) per league: on PostgreSQL the counts its triggers keep (``LeagueCount``), one row a league;
    elsewhere counted, the few bots read first (index ``player_bot_idx``) and left out by id."""
    from django.db import connection

    from federation.db import fixed_rows

    if connection.vendor == "postgresql":
        counts = dict(fixed_rows(("preferans.league_counts",), LeagueCount.objects.values_list("league", "players")))
    else:
        bots = Player.objects.filter(is_bot=True).values("pk")
        counts = dict(
            PreferansRating.objects.exclude(player_id__in=bots)
            .order_by()
            .values_list("league")
            .annotate(n=Count("pk"))
            .values_list("league", "n")
        )
    return {value: counts.get(value, 0) for value, _label in League.choices}


def player_rating(*, player: Player) -> PreferansRating | None:
    """The player's rating row, with what the federation's list carried over (``StartingRating``: ``start_rating``,
    ``start_max_rating``, ``start_league``, ``start_date``, all None without one), in two plain queries: four
    correlated subqueries, each sorted by the lists' and the players' names, took PostgreSQL longer to plan than
    the two reads (issue 16)."""
    from ratings.models import Engine, StartingRating

    rating = PreferansRating.objects.filter(player=player).order_by().first()
    if rating is None:
        return None
    carried = (
        StartingRating.objects.filter(player=player, rating_list__engine=Engine.PREFERANS)
        .order_by("rating_list__ordering", "rating_list__slug")
        .values_list("rating", "max_rating", "league", "list_date")
        .first()
    )
    rating.start_rating, rating.start_max_rating, rating.start_league, rating.start_date = carried or (None,) * 4
    return rating


#: What the player's page lists: the latest games and deals.
RECENT_GAMES = 10
RECENT_DEALS = 20


class PageGame(NamedTuple):
    """One game of the player: its change (the sum of its deals', `rules/preferans.md`, "Principles"), the rating
    after it, and, when it is among the latest, its table: each player's (last name, first name, Latin last name,
    Latin first name), in seat order."""

    game_id: int
    day: dt.date
    delta: float
    deals: int
    last_deal: int
    rating: float
    table: tuple[tuple[str, str, str, str], ...] = ()


class PageDeal(NamedTuple):
    game_id: int
    day: dt.date
    number: int
    whists: int
    delta: float
    rating_after: float
    explanation: Explanation


@dataclass(frozen=True)
class PlayerPage:
    """The preferans part of the player's page, read as plain values. ``start_*`` is what the federation's list
    carried over (``StartingRating``), all None without one (the numbers are a ``Decimal`` on PostgreSQL, the stored
    float on SQLite: the page writes both the same); ``games`` are every game in play order (the chart),
    ``recent_games`` the latest first, each with its table; ``deals`` the latest deals, newest first."""

    rating: float
    max_rating: float
    league: str
    deals_played: int
    start_rating: Decimal | float | None
    start_max_rating: Decimal | float | None
    start_league: str | None
    start_date: dt.date | None
    games: list[PageGame]
    recent_games: list[PageGame]
    deals: list[PageDeal]


class _ResultRow(NamedTuple):
    """A ``DealResult`` read as values, with its deal's number and game (what ``_explain`` reads of a row)."""

    deal_id: int
    player_id: int
    whists: int
    rating_before: float
    rating_after: float
    delta: float
    pro_before: bool
    bot_max: float | None
    number: int
    game_id: int


def _utc_day(value) -> dt.date:
    """The date of a stored moment as the ORM's rows gave it (UTC): psycopg's aware datetime, or SQLite's text of an
    aggregate."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


def player_page_statements(*, player_id: int) -> list[tuple[str, list]]:
    """What ``player_page`` sends first (``federation.db.reads_together``): the rating row."""
    from django.db import connection

    from ratings.models import Engine

    if connection.vendor != "postgresql":
        return []
    return [(_page_sql()["rating"], [Engine.PREFERANS.value, Engine.PREFERANS.value, player_id])]


def player_page(*, player_id: int) -> PlayerPage | None:
    """Everything the preferans section of the player's page shows, in one statement for a player without deals
    and four with them (the rating with the carried-over one and the list's parameters; the player's games; the
    tables of the latest; everyone's rows of the latest deals, which their explanations need). Each is the same text
    on every page, sent with server-side binding (``bound_cursor``), so PostgreSQL runs it from a prepared plan: the
    ORM's nine queries compiled on every cold page were most of the section's cost (issue 16)."""
    from ratings.models import Engine

    with bound_cursor() as cursor:
        cursor.execute(_page_sql()["rating"], [Engine.PREFERANS.value, Engine.PREFERANS.value, player_id])
        row = cursor.fetchone()
        if row is None:
            return None
        rating, max_rating, league, deals_played, *carried, first_before, params = row
        games: list[PageGame] = []
        recent: list[PageGame] = []
        deals: list[PageDeal] = []
        if first_before is not None:
            games = _page_games(cursor, player_id, first_before)
            recent = _with_tables(cursor, sorted(games, key=lambda game: -game.last_deal)[:RECENT_GAMES])
            deals = _page_deals(
                cursor, player_id, settings_from_text(params), {game.game_id: game.day for game in games}
            )
    start_rating, start_max_rating, start_league, start_date = carried
    return PlayerPage(
        rating,
        max_rating,
        league,
        deals_played,
        start_rating,
        start_max_rating,
        start_league,
        None if start_date is None else _utc_day(start_date),
        games,
        recent,
        deals,
    )


@cache
def _page_sql() -> dict[str, str]:
    """The page's statements, written once per process (table names from the models; ``%s`` bound on each page).

    ``rating``: the rating row, the list's carried-over row that ``player_rating`` picks, the rating before the
    player's first deal (None: no deals) and the list's parameters, which explain the deals. ``games``: one row per
    game, the player's deals in it summed. ``tables``: the seats of some games (PostgreSQL binds the ids as one
    array, so the statement is the same for any number of games). ``deals``: everyone's rows of the player's latest
    deals, in the order written (the explanation rates the deal again from all of them).
    """
    from ratings.models import RatingList, StartingRating

    ratings, starting, lists = PreferansRating._meta.db_table, StartingRating._meta.db_table, RatingList._meta.db_table
    results, deals, games = DealResult._meta.db_table, Deal._meta.db_table, Game._meta.db_table
    seats, players = Seat._meta.db_table, Player._meta.db_table
    played = f"{results} AS r INNER JOIN {deals} AS d ON d.id = r.deal_id INNER JOIN {games} AS g ON g.id = d.game_id"
    return {
        "rating": (
            "SELECT r.rating, r.max_rating, r.league, r.deals, s.rating, s.max_rating, s.league, s.list_date, "
            f"(SELECT x.rating_before FROM {results} AS x WHERE x.player_id = r.player_id ORDER BY x.deal_id LIMIT 1), "
            f"(SELECT l.params FROM {lists} AS l WHERE l.engine = %s ORDER BY l.id LIMIT 1) "
            f"FROM {ratings} AS r LEFT OUTER JOIN {starting} AS s ON s.id = ("
            f"SELECT c.id FROM {starting} AS c INNER JOIN {lists} AS l ON l.id = c.rating_list_id "
            "WHERE c.player_id = r.player_id AND l.engine = %s ORDER BY l.ordering, l.slug LIMIT 1) "
            "WHERE r.player_id = %s"
        ),
        "games": (
            "SELECT d.game_id, MAX(g.played_at), SUM(r.delta), COUNT(r.id), MIN(r.deal_id), MAX(r.deal_id) "
            f"FROM {played} WHERE r.player_id = %s GROUP BY d.game_id ORDER BY MIN(r.deal_id)"
        ),
        "tables": (
            "SELECT s.game_id, p.last_name, p.first_name, p.last_name_latin, p.first_name_latin "
            f"FROM {seats} AS s INNER JOIN {players} AS p ON p.id = s.player_id WHERE s.game_id "
            + ("= ANY(%s)" if connection.vendor == "postgresql" else "IN ({})")
            + " ORDER BY s.seat, s.id"
        ),
        "deals": (
            "SELECT r.deal_id, r.player_id, r.whists, r.rating_before, r.rating_after, r.delta, r.pro_before, "
            f"r.bot_max, d.number, d.game_id FROM {results} AS r INNER JOIN {deals} AS d ON d.id = r.deal_id "
            "WHERE r.deal_id IN ("
            f"SELECT x.deal_id FROM {results} AS x WHERE x.player_id = %s ORDER BY x.deal_id DESC LIMIT {RECENT_DEALS}"
            ") ORDER BY r.deal_id DESC, r.id"
        ),
    }


def _page_games(cursor, player_id: int, first_before: float) -> list[PageGame]:
    """Every game of the player in play order, with the rating after it: the rating before the first deal plus the
    games' changes so far."""
    cursor.execute(_page_sql()["games"], [player_id])
    games = []
    rating = first_before
    for game_id, played_at, delta, deals, _first, last in cursor.fetchall():
        rating += delta
        games.append(PageGame(game_id, _utc_day(played_at), delta, deals, last, rating))
    return games


def _with_tables(cursor, games: list[PageGame]) -> list[PageGame]:
    """The games with their tables."""
    ids = [game.game_id for game in games]
    if connection.vendor == "postgresql":
        cursor.execute(_page_sql()["tables"], [ids])
    else:
        cursor.execute(_page_sql()["tables"].format(", ".join(["%s"] * len(ids))), ids)
    tables: dict[int, list[tuple]] = defaultdict(list)
    for game_id, *name in cursor.fetchall():
        tables[game_id].append(tuple(name))
    return [game._replace(table=tuple(tables[game.game_id])) for game in games]


def _page_deals(cursor, player_id: int, settings: PreferansSettings, days: dict[int, dt.date]) -> list[PageDeal]:
    """The player's latest deals, newest first, each explained (only the player's own change is written out); a
    deal's date is its game's (``days``, from the player's games)."""
    cursor.execute(_page_sql()["deals"], [player_id])
    by_deal: dict[int, list[_ResultRow]] = defaultdict(list)
    for row in cursor.fetchall():
        by_deal[row[0]].append(_ResultRow(*row))
    deals = []
    for table in by_deal.values():
        own = next(row for row in table if row.player_id == player_id)
        change = next(c for c in _rate_table(table, settings).changes if c.player == str(player_id))
        deals.append(
            PageDeal(
                own.game_id,
                days[own.game_id],
                own.number,
                own.whists,
                own.delta,
                own.rating_after,
                change.explanation,
            )
        )
    return deals


def deal_explanations(*, deals: Iterable[int]) -> dict[tuple[int, int], Explanation]:
    """(deal id, player id) -> the engine's explanation, rebuilt from the rows of everyone at the table."""
    rows = DealResult.objects.filter(deal_id__in=list(deals)).order_by("deal_id", "id")
    return _explain(rows, rating_settings())


def explain_rows(rows: Iterable[DealResult], settings: PreferansSettings) -> dict[tuple[int, int], Explanation]:
    """(deal id, player id) -> the explanation, for rows already read (every player's row of each deal)."""
    return _explain(rows, settings)


def _explain(rows: Iterable[DealResult], settings: PreferansSettings) -> dict[tuple[int, int], Explanation]:
    """Each deal of ``rows`` (every player's row of it, in the order written) rated again from the stored numbers."""
    by_deal: dict[int, list[DealResult]] = defaultdict(list)
    for row in rows:
        by_deal[row.deal_id].append(row)
    out = {}
    for deal_id, table in by_deal.items():
        for change in _rate_table(table, settings).changes:
            out[(deal_id, int(change.player))] = change.explanation
    return out


def _rate_table(table, settings: PreferansSettings) -> DealOutcome:
    """One deal rated again from everyone's rows of it (``DealResult`` or ``_ResultRow``), in the order written."""
    states = {
        str(row.player_id): PlayerState(
            row.rating_before, row.rating_before, PRO if row.pro_before else AMATEUR, row.bot_max
        )
        for row in table
    }
    return rate_deal(states, {str(row.player_id): row.whists for row in table}, settings)


def game_deals(*, game: Game) -> list[tuple[Deal, list[tuple[DealResult, Explanation]]]]:
    deals = list(game.deals.order_by("number"))
    rows = list(DealResult.objects.filter(deal__game=game).select_related("player").order_by("deal_id", "id"))
    results: dict[int, list[DealResult]] = defaultdict(list)
    for row in rows:
        results[row.deal_id].append(row)
    explained = _explain(rows, rating_settings())
    return [(deal, [(row, explained[(deal.pk, row.player_id)]) for row in results[deal.pk]]) for deal in deals]


def game_totals(*, game: Game) -> list[dict]:
    """Each seated player's change over the game (the sum of the deals played, a game left early included)."""
    sums = dict(
        DealResult.objects.filter(deal__game=game)
        .order_by()
        .values_list("player_id")
        .annotate(total=Sum("delta"))
        .values_list("player_id", "total")
    )
    return [
        {"player": seat.player, "delta": sums.get(seat.player_id, 0.0)}
        for seat in game.seats.select_related("player", "player__bot_level").order_by("seat", "id")
    ]


def calculator_grid(*, ratings: Sequence[float], table_ratings: Sequence[float], whists: int) -> list[list[float]]:
    """The calculator's cells: Rd for each (own rating, table rating) at the whists typed (engine's ``deal_delta``)."""
    settings = rating_settings()
    return [[deal_delta(rs, rt, whists, settings) for rt in table_ratings] for rs in ratings]


# --- the game servers' API ------------------------------------------------------------------------------------------


def game_server_for_token(*, token_hash: str) -> GameServer | None:
    """The active game server whose token has this hash."""
    return GameServer.objects.filter(token_hash=token_hash, is_active=True).first()


@dataclass(frozen=True)
class TokenGame:
    """What one statement tells about a token and the game it posts to: ``game_server_id`` is ``None`` when there is
    no such game, ``0`` for a game entered by hand."""

    server: GameServer
    game_server_id: int | None


def token_and_game(*, token_hash: str, game_id: int) -> TokenGame | None:
    """The token's active server and the server of game ``game_id``, in one query (``None``: no such token).

    The general path of a deal posted to its game's address, when the one locking statement found something off;
    the game is locked later, by ``deals_apply``.
    """
    server_table, game_table = GameServer._meta.db_table, Game._meta.db_table
    with bound_cursor() as cursor:
        cursor.execute(
            f"SELECT s.id, s.name, (SELECT COALESCE(g.server_id, 0) FROM {game_table} AS g WHERE g.id = %s) "
            f"FROM {server_table} AS s WHERE s.token_hash = %s AND s.is_active",
            [game_id, token_hash],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    server_id, name, game_server = row
    server = GameServer(id=server_id, name=name, is_active=True)
    server._state.adding = False
    return TokenGame(server=server, game_server_id=game_server)


def server_game(*, server: GameServer, external_id: str) -> Game | None:
    """The server's game with the server's own id."""
    return Game.objects.filter(server=server, external_id=external_id).first()


def stored_results(*, deal_ids: Sequence[int]) -> dict[int, list[DealResult]]:
    """The stored results of these deals (the answer to a replayed deal), by deal, in the order written."""
    stored: dict[int, list[DealResult]] = defaultdict(list)
    if deal_ids:
        for row in DealResult.objects.filter(deal_id__in=list(deal_ids)).order_by("deal_id", "id"):
            stored[row.deal_id].append(row)
    return stored


def game_table(*, game: Game) -> list[int]:
    """The seated players' ids, in seat order."""
    return list(game.seats.order_by("seat", "id").values_list("player_id", flat=True))


def games_page(*, page_number) -> tuple:
    """Games newest first, a page of 50 with their players (two queries a page: games and seats)."""
    from django.core.paginator import Paginator
    from django.db.models import Prefetch

    games = (
        Game.objects.order_by("-played_at", "-id")
        .annotate(deal_count=Count("deals"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("id")))
    )
    page = Paginator(games, 50).get_page(page_number)
    return page
