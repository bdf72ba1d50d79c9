"""Reads of the preferans rating for the pages and the API: a bounded number of queries whatever the length.

Explanations are not stored as text: each ``DealResult`` keeps the player's rating before the deal, whether they
were Pro and their bot cap, and the engine explains the deal again from the rows of everyone at the table
(``deal_explanations``), with the very formula that rated it. The settings are the preferans list's parameters
(``services.rating_settings``), which cannot change once a deal is rated, so an explanation never drifts from the
stored numbers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Max, Min, QuerySet, Subquery, Sum

from federation.models import Player
from federation.selectors import player_search
from federation.tables import listed
from ratings.engines.common import Explanation
from ratings.engines.preferans import AMATEUR, PRO, PlayerState, PreferansSettings, deal_delta, rate_deal
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

    if connection.vendor == "postgresql":
        counts = dict(LeagueCount.objects.values_list("league", "players"))
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


@dataclass(frozen=True)
class GamePoint:
    game_id: int
    played_at: object
    delta: float
    deals: int
    rating: float


def player_history(*, player: Player) -> list[GamePoint]:
    """One point per game: the game's change is the sum of its deals' (`rules/preferans.md`, "Principles")."""
    rows = list(
        DealResult.objects.filter(player=player)
        .order_by()
        .values("deal__game_id")
        .annotate(
            delta=Sum("delta"),
            deals=Count("pk"),
            first=Min("deal_id"),
            last=Max("deal_id"),
            at=Max("deal__game__played_at"),
        )
        .order_by("first")
    )
    if not rows:
        return []
    start = DealResult.objects.filter(player=player, deal_id=rows[0]["first"]).values_list("rating_before", flat=True)[
        0
    ]
    points = []
    rating = start
    for row in rows:
        rating += row["delta"]
        points.append(GamePoint(row["deal__game_id"], row["at"], row["delta"], row["deals"], rating))
    return points


def player_recent_games(*, player: Player, limit: int = 10) -> list[dict]:
    """The player's latest games with the game's change and its table, newest first, in three queries."""
    rows = list(
        DealResult.objects.filter(player=player)
        .order_by()
        .values("deal__game_id")
        .annotate(delta=Sum("delta"), deals=Count("pk"), last=Max("deal_id"))
        .order_by("-last")[:limit]
    )
    ids = [row["deal__game_id"] for row in rows]
    games = Game.objects.in_bulk(ids)
    tables: dict[int, list[Player]] = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=ids).select_related("player").order_by("seat", "id"):
        tables[seat.game_id].append(seat.player)
    return [
        {
            "game": games[row["deal__game_id"]],
            "delta": row["delta"],
            "deals": row["deals"],
            "table": tables[row["deal__game_id"]],
        }
        for row in rows
    ]


def player_recent_deals(*, player: Player, limit: int = 20) -> list[tuple[DealResult, Explanation]]:
    """The player's latest deals, each with the explanation of the change: one query for the rows of everyone at
    those tables (the explanation needs them all), one for the settings."""
    latest = DealResult.objects.filter(player=player).order_by("-deal_id").values("deal_id")[:limit]
    rows = list(
        DealResult.objects.filter(deal_id__in=Subquery(latest))
        .select_related("deal", "deal__game")
        .order_by("-deal_id", "id")
    )
    explained = _explain(rows, rating_settings())
    return [(row, explained[(row.deal_id, row.player_id)]) for row in rows if row.player_id == player.pk]


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
        states = {
            str(row.player_id): PlayerState(
                row.rating_before, row.rating_before, PRO if row.pro_before else AMATEUR, row.bot_max
            )
            for row in table
        }
        outcome = rate_deal(states, {str(row.player_id): row.whists for row in table}, settings)
        for change in outcome.changes:
            out[(deal_id, int(change.player))] = change.explanation
    return out


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


# --- page versions (federation.caching) ----------------------------------------------------------------------------


def leaderboard_version(request, **kwargs) -> str:
    """Every rating row carries ``updated_at``, set by each deal, game and import that moves it."""
    from federation.selectors import registry_fragments, version_of

    table = PreferansRating._meta.db_table
    return version_of(
        [
            *registry_fragments(),
            (f"SELECT MAX(updated_at) FROM {table}", []),
            (f"SELECT MAX(player_id) FROM {table}", []),
        ]
    )


def player_version_fragments(player_id: int) -> list:
    table = PreferansRating._meta.db_table
    results = DealResult._meta.db_table
    return [
        (f"SELECT MAX(updated_at) FROM {table} WHERE player_id = %s", [player_id]),
        (f"SELECT MAX(deal_id) FROM {results} WHERE player_id = %s", [player_id]),
    ]


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
