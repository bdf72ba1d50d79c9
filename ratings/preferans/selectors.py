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

from django.db.models import Count, Max, Min, QuerySet, Subquery, Sum

from federation.models import Player
from federation.selectors import player_search
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
from ratings.preferans.models import Deal, DealResult, Game, GameServer, League, PreferansRating, Seat
from ratings.preferans.services import rating_settings

#: The calculator's bounds: ratings and whists a visitor may ask about.
CALC_MIN_RATING = 0.0
CALC_MAX_RATING = 10_000.0
CALC_MAX_WHISTS = 1_000
CALC_MAX_CELLS = 400


def _people():
    """Rows of people, not bots: the few bots left out by id (index ``player_bot_idx``), so that counting a league
    reads the ratings alone."""
    return PreferansRating.objects.exclude(player_id__in=Player.objects.filter(is_bot=True).values("pk"))


def leaderboard(*, league: str = League.AMATEUR, search: str = "") -> QuerySet[PreferansRating]:
    """The league's players (no bots), best first, with what the table and its downloads show of them and their
    club; the table sorts by current or by highest rating."""
    ratings = (
        _people()
        .filter(league=league)
        .select_related("player__club")
        .only(
            "rating",
            "max_rating",
            "deals",
            *(f"player__{name}" for name in ("last_name", "first_name", "last_name_latin", "first_name_latin")),
            "player__city",
            "player__country",
            "player__club__name",
            "player__club__name_en",
        )
        .order_by("-rating", "player_id")
    )
    if search:
        players = player_search(queryset=Player.objects.filter(is_bot=False), search=search)
        ratings = ratings.filter(player__in=players)
    return ratings


def league_counts() -> dict[str, int]:
    """Players (no bots) per league."""
    counts = dict(_people().order_by().values_list("league").annotate(n=Count("pk")).values_list("league", "n"))
    return {value: counts.get(value, 0) for value, _label in League.choices}


def player_rating(*, player: Player) -> PreferansRating | None:
    """The player's rating row, with what the federation's list carried over (``StartingRating``: ``start_rating``,
    ``start_max_rating``, ``start_league``, ``start_date``, all None without one)."""
    from ratings.models import Engine, StartingRating

    rating = PreferansRating.objects.filter(player=player).first()
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


def player_games(*, player_id: int) -> list[dict]:
    """Every game of the player in play order (the chart), each with its change (the sum of its deals',
    `rules/preferans.md`, "Principles"), its deals, its date and the rating after it."""
    games = list(
        DealResult.objects.filter(player_id=player_id)
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
    if games:
        rating = DealResult.objects.filter(player_id=player_id, deal_id=games[0]["first"]).values_list(
            "rating_before", flat=True
        )[0]
        for game in games:
            rating += game["delta"]
            game["rating"] = rating
    return games


def recent_games(*, games: list[dict]) -> list[dict]:
    """The latest of the player's ``games`` (``player_games``), newest first, each with its table (``players``)."""
    recent = sorted(games, key=lambda game: -game["last"])[:RECENT_GAMES]
    tables: dict[int, list[Player]] = defaultdict(list)
    seats = (
        Seat.objects.filter(game_id__in=[game["deal__game_id"] for game in recent])
        .select_related("player")
        .only(
            "game_id",
            *(f"player__{name}" for name in ("last_name", "first_name", "last_name_latin", "first_name_latin")),
        )
        .order_by("seat", "id")
    )
    for seat in seats:
        tables[seat.game_id].append(seat.player)
    return [{**game, "players": tables[game["deal__game_id"]]} for game in recent]


def recent_deals(*, player_id: int) -> list[tuple[DealResult, Explanation]]:
    """The player's latest deals, newest first, each with its game and the explanation of the change (the rows of
    everyone at those tables, which the explanation needs, read in one query)."""
    latest = DealResult.objects.filter(player_id=player_id).order_by("-deal_id").values("deal_id")[:RECENT_DEALS]
    rows = list(
        DealResult.objects.filter(deal_id__in=Subquery(latest))
        .select_related("deal__game")
        .only(
            "deal_id",
            "player_id",
            "whists",
            "rating_before",
            "rating_after",
            "delta",
            "pro_before",
            "bot_max",
            "deal__number",
            "deal__game__played_at",
        )
        .order_by("-deal_id", "id")
    )
    explained = _explain(rows, rating_settings())
    return [(row, explained[(row.deal_id, row.player_id)]) for row in rows if row.player_id == player_id]


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
    """One deal rated again from everyone's rows of it, in the order written."""
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
