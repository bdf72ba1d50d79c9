"""The statements of a deal: the locks, the replay check and the writes, as few as the rules allow.

A game server's usual request is one deal of one game, and it is the site's hot path: on PostgreSQL it costs two
statements, one that checks the token and locks the game, its table and its players' rating rows (with the list's
parameters read alongside), and one that numbers and writes the deal, its results and the new ratings unless the
server's deal id is already stored. Everything else (batches, the admin, SQLite) takes the general path: the games
locked in id order, then the players' rating rows in player id order, so two requests never deadlock.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import connection

from federation.db import bound_cursor
from federation.models import Player
from ratings.engines.preferans import PlayerState, PreferansSettings
from ratings.models import Engine, RatingList
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat
from ratings.preferans.services.games import ratings_ensure
from ratings.preferans.services.rating_list import settings_from_text

#: The fields of a rating row a deal changes.
RATING_FIELDS = ["rating", "max_rating", "league", "deals", "updated_at"]


def state_sql(join_on: str) -> tuple[str, str]:
    """The columns and joins that read a rating row ``r`` as ``state_of`` takes it (with the bot's level maximum);
    ``join_on`` is the column the player joins on."""
    player_table = Player._meta.db_table
    level_table = Player._meta.get_field("bot_level").related_model._meta.db_table
    columns = "r.player_id, r.rating, r.max_rating, r.league, r.deals, r.updated_at, p.is_bot, b.max_rating"
    joins = (
        f"INNER JOIN {player_table} AS p ON p.id = {join_on} "
        f"LEFT OUTER JOIN {level_table} AS b ON b.id = p.bot_level_id "
    )
    return columns, joins


def state_of(
    pid: int, rating, max_rating, league, deals, updated_at, is_bot, level_max
) -> tuple[PreferansRating, PlayerState]:
    """A locked rating row and the engine's state of it; a bot's state is capped at its level's maximum."""
    row = PreferansRating(
        player_id=pid, rating=rating, max_rating=max_rating, league=league, deals=deals, updated_at=updated_at
    )
    row._state.adding = False
    cap = float(level_max) if is_bot and level_max is not None else None
    rating = row.rating if cap is None else min(row.rating, cap)
    return row, PlayerState(rating, max(row.max_rating, rating), row.league, cap)


def lock_states(player_ids: set[int]) -> dict[int, tuple[PreferansRating, PlayerState]]:
    """Lock every rating row in player id order (no deadlock between requests), creating newcomers' rows first.

    A bot's state carries its level's maximum, read from the same row (``FOR UPDATE OF`` the rating row only).
    """

    rating_table = PreferansRating._meta.db_table
    columns, joins = state_sql("r.player_id")
    lock = " FOR UPDATE OF r" if connection.features.has_select_for_update_of else ""

    def locked():
        ids = sorted(player_ids)
        if connection.vendor == "postgresql":
            where, params = "r.player_id = ANY(%s)", [ids]
        else:
            where, params = f"r.player_id IN ({', '.join(['%s'] * len(ids))})", ids
        with bound_cursor() as cursor:
            cursor.execute(
                f"SELECT {columns} FROM {rating_table} AS r {joins}WHERE {where} ORDER BY r.player_id{lock}",
                params,
            )
            return {row[0]: row[1:] for row in cursor.fetchall()}

    rows = locked()
    if player_ids - rows.keys():
        ratings_ensure(player_ids=sorted(player_ids - rows.keys()))
        rows = locked()
    return {pid: state_of(pid, *row) for pid, row in rows.items()}


def lock_games(game_ids: list[int]) -> tuple[dict[int, Game], dict[int, list[int]]]:
    """Lock the games in id order and read their tables in the same statement."""
    game_table, seat_table = Game._meta.db_table, Seat._meta.db_table
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    games: dict[int, Game] = {}
    seats: dict[int, list[int]] = defaultdict(list)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.id, g.server_id, g.external_id, g.finished, s.player_id FROM {game_table} AS g "
            f"LEFT OUTER JOIN {seat_table} AS s ON s.game_id = g.id "
            f"WHERE g.id IN ({', '.join(['%s'] * len(game_ids))}) ORDER BY g.id, s.seat, s.id{lock}",
            game_ids,
        )
        for pk, server_id, external_id, finished, player_id in cursor.fetchall():
            if pk not in games:
                game = Game(id=pk, server_id=server_id, external_id=external_id, finished=finished)
                game._state.adding = False
                games[pk] = game
            if player_id is not None:
                seats[pk].append(player_id)
    return games, seats


@dataclass(frozen=True)
class LockedGame:
    """One game locked with its table and its players' rating rows, ready for ``deals_apply(locked=...)``, with the
    settings read in the same statement."""

    server: GameServer | None
    game: Game
    seats: list[int]
    states: dict[int, tuple[PreferansRating, PlayerState]]
    settings: PreferansSettings


def game_lock_for_token(*, token_hash: str, game_id: int) -> LockedGame | None:
    """A game server's deal, on PostgreSQL: in one statement, check that the token is an active server's and the game
    is that server's, lock the game and its players' rating rows (``lock_one_game``).

    None when anything is off (unknown token, no such game, another server's game, a newcomer without a rating row)
    and on SQLite: the caller then takes the general path, which names the problem.
    """
    if connection.vendor != "postgresql":
        return None
    return lock_one_game(game_id, token_hash=token_hash)


def lock_one_game(game_id: int, token_hash: str | None = None) -> LockedGame | None:
    """PostgreSQL, one game: lock the game, read its table and lock its players' rating rows in one statement; with
    ``token_hash``, only a game of that token's active server. The preferans list's parameters come with it.

    The rows come out ordered by player id and PostgreSQL locks them in that order, the game with the first row: the
    order of ``lock_games`` then ``lock_states`` (games, then players by id), so the two paths cannot deadlock.
    Returns None when there is no such game or a seated player has no rating row yet: the general path handles that.
    """
    game_table, seat_table, rating_table = Game._meta.db_table, Seat._meta.db_table, PreferansRating._meta.db_table
    columns, joins = state_sql("s.player_id")
    server_join, params = "", [Engine.PREFERANS.value, game_id]
    if token_hash is not None:
        server_join = (
            f"INNER JOIN {GameServer._meta.db_table} AS v ON v.id = g.server_id AND v.token_hash = %s AND v.is_active "
        )
        params = [Engine.PREFERANS.value, token_hash, game_id]
    server_name = "v.name" if token_hash is not None else "NULL"
    with bound_cursor() as cursor:
        cursor.execute(
            f"SELECT g.server_id, {server_name}, g.external_id, g.finished, s.seat, s.id, "
            f"(SELECT COUNT(*) FROM {seat_table} AS c WHERE c.game_id = g.id), "
            f"(SELECT l.params FROM {RatingList._meta.db_table} AS l WHERE l.engine = %s ORDER BY l.id LIMIT 1), "
            f"{columns} FROM {game_table} AS g {server_join}INNER JOIN {seat_table} AS s ON s.game_id = g.id "
            f"INNER JOIN {rating_table} AS r ON r.player_id = s.player_id {joins}"
            f"WHERE g.id = %s ORDER BY r.player_id FOR UPDATE OF g, r",
            params,
        )
        rows = cursor.fetchall()
    if not rows or rows[0][6] != len(rows):
        return None
    server_id, name, external_id, finished = rows[0][:4]
    server = None
    if token_hash is not None:
        server = GameServer(id=server_id, name=name, is_active=True)
        server._state.adding = False
    game = Game(id=game_id, server_id=server_id, external_id=external_id, finished=finished)
    game._state.adding = False
    seated = sorted(rows, key=lambda row: (row[4], row[5]))
    states = {row[8]: state_of(*row[8:]) for row in rows}
    return LockedGame(
        server=server,
        game=game,
        seats=[row[8] for row in seated],
        states=states,
        settings=settings_from_text(rows[0][7]),
    )


def stored_deals(
    game_ids: list[int], server_ids: set[int | None], external: list[str]
) -> tuple[dict[tuple[int | None, int | None, str], Deal], dict[int, int]]:
    """The stored deals with these server ids (replays) and each game's last deal number, in one statement."""
    table = Deal._meta.db_table
    games_in = ", ".join(["%s"] * len(game_ids))
    parts = [
        f"SELECT 0, NULL, game_id, NULL, NULL, MAX(number) FROM {table} WHERE game_id IN ({games_in}) GROUP BY game_id"
    ]
    params: list = list(game_ids)
    servers = sorted(server_ids - {None})
    ids_in = ", ".join(["%s"] * len(external))
    columns = "SELECT 1, id, game_id, server_id, external_id, number FROM"
    if external and servers:
        parts.append(
            f"{columns} {table} WHERE server_id IN ({', '.join(['%s'] * len(servers))}) AND external_id IN ({ids_in})"
        )
        params += servers + external
    if external and None in server_ids:
        parts.append(
            f"{columns} {table} WHERE server_id IS NULL AND game_id IN ({games_in}) AND external_id IN ({ids_in})"
        )
        params += list(game_ids) + external
    known: dict[tuple[int | None, int | None, str], Deal] = {}
    numbers: dict[int, int] = {}
    with bound_cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        for kind, pk, game_id, server_id, external_id, number in cursor.fetchall():
            if kind == 0:
                numbers[game_id] = number
                continue
            deal = Deal(id=pk, game_id=game_id, server_id=server_id, external_id=external_id, number=number)
            deal._state.adding = False
            known[(server_id, None if server_id else game_id, external_id)] = deal
    return known, numbers


def rating_arrays(rows: list[PreferansRating]) -> list[list]:
    """The rating rows' ``RATING_FIELDS`` (with the player) as one array each, for an ``UPDATE ... FROM unnest``."""
    return [[getattr(row, name) for row in rows] for name in ("player_id", *RATING_FIELDS)]


def write_deals(
    new_deals: list[Deal], results: list[list[DealResult]], ratings: list[PreferansRating], to_finish: list[int]
) -> None:
    """Store the new deals, their results, the new ratings and the games now finished.

    On PostgreSQL this is one statement (data-modifying ``WITH``): the deals' ids come back through ``RETURNING`` and
    the results join them by (game, number), which is unique.
    """
    if not new_deals and not to_finish:
        return
    if connection.vendor != "postgresql":
        Deal.objects.bulk_create(new_deals)
        all_results = []
        for deal, rows in zip(new_deals, results, strict=True):
            for result in rows:
                result.deal = deal
                all_results.append(result)
        DealResult.objects.bulk_create(all_results)
        if ratings:
            PreferansRating.objects.bulk_update(ratings, RATING_FIELDS)
        if to_finish:
            Game.objects.filter(pk__in=to_finish).update(finished=True)
        return
    if len(new_deals) == 1 and len(to_finish) <= 1:
        write_one_deal(new_deals[0], results[0], ratings, to_finish)
        return
    deal_table, result_table = Deal._meta.db_table, DealResult._meta.db_table
    rating_table, game_table = PreferansRating._meta.db_table, Game._meta.db_table
    result_columns = [[] for _ in range(10)]
    for deal, rows in zip(new_deals, results, strict=True):
        for result in rows:
            for column, value in zip(
                result_columns,
                (
                    deal.game_id,
                    deal.number,
                    result.player_id,
                    result.whists,
                    result.rating_before,
                    result.rating_after,
                    result.delta,
                    result.pro_before,
                    result.bot_max,
                    len(result_columns[0]),
                ),
                strict=True,
            ):
                column.append(value)
    params = [
        [d.game_id for d in new_deals],
        [d.server_id for d in new_deals],
        [d.external_id for d in new_deals],
        [d.number for d in new_deals],
        [d.applied_at for d in new_deals],
        *result_columns,
        *rating_arrays(ratings),
        to_finish,
    ]
    with bound_cursor() as cursor:
        cursor.execute(
            f"WITH d AS (INSERT INTO {deal_table} (game_id, server_id, external_id, number, applied_at) "
            "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::varchar[], %s::integer[], %s::timestamptz[]) "
            "RETURNING id, game_id, number), "
            f"r AS (INSERT INTO {result_table} (deal_id, player_id, whists, rating_before, rating_after, delta, "
            "pro_before, bot_max) SELECT d.id, x.player_id, x.whists, x.before, x.after, x.delta, x.pro, x.cap "
            "FROM unnest(%s::bigint[], %s::integer[], %s::bigint[], %s::integer[], %s::float8[], %s::float8[], "
            "%s::float8[], %s::boolean[], %s::float8[], %s::integer[]) "
            "AS x (game_id, number, player_id, whists, before, after, delta, pro, cap, ord) "
            "INNER JOIN d ON d.game_id = x.game_id AND d.number = x.number ORDER BY x.ord), "
            f"u AS (UPDATE {rating_table} AS t SET rating = v.rating, max_rating = v.max_rating, league = v.league, "
            "deals = v.deals, updated_at = v.updated_at FROM unnest(%s::bigint[], %s::float8[], %s::float8[], "
            "%s::varchar[], %s::integer[], %s::timestamptz[]) "
            "AS v (player_id, rating, max_rating, league, deals, updated_at) WHERE t.player_id = v.player_id), "
            f"f AS (UPDATE {game_table} SET finished = true WHERE id = ANY(%s::bigint[])) "
            "SELECT id, game_id, number FROM d",
            params,
        )
        ids = {(game_id, number): pk for pk, game_id, number in cursor.fetchall()}
    for deal, rows in zip(new_deals, results, strict=True):
        deal.id = ids[(deal.game_id, deal.number)]
        deal._state.adding = False
        for result in rows:
            result.deal = deal


def write_one_deal(
    deal: Deal, results: list[DealResult], ratings: list[PreferansRating], to_finish: list[int], settle: bool = False
) -> bool:
    """``write_deals`` for one deal, on PostgreSQL: the same single statement with plain parameters in ``VALUES``
    rows instead of arrays, which psycopg sends without building array literals.

    With ``settle`` (a game server's deal, see ``deals.deals_apply``) the statement also numbers the deal (the game's
    last number plus one) and writes nothing when the server's deal id is already stored; returns whether it wrote.
    """
    result_rows = ", ".join(
        ["(%s::bigint, %s::integer, %s::float8, %s::float8, %s::float8, %s::boolean, %s::float8, %s)"] * len(results)
    )
    rating_rows = ", ".join(
        ["(%s::bigint, %s::float8, %s::float8, %s::varchar, %s::integer, %s::timestamptz)"] * len(ratings)
    )
    deal_table = Deal._meta.db_table
    if settle:
        insert = (
            f"INSERT INTO {deal_table} (game_id, server_id, external_id, number, applied_at) "
            "SELECT %s::bigint, %s::bigint, %s::varchar, COALESCE(MAX(number), 0) + 1, %s::timestamptz "
            f"FROM {deal_table} WHERE game_id = %s::bigint "
            "ON CONFLICT (server_id, external_id) WHERE server_id IS NOT NULL DO NOTHING RETURNING id, number"
        )
        params: list = [deal.game_id, deal.server_id, deal.external_id, deal.applied_at, deal.game_id]
    else:
        insert = (
            f"INSERT INTO {deal_table} (game_id, server_id, external_id, number, applied_at) "
            "VALUES (%s::bigint, %s::bigint, %s::varchar, %s::integer, %s::timestamptz) RETURNING id, number"
        )
        params = [deal.game_id, deal.server_id, deal.external_id, deal.number, deal.applied_at]
    for order, r in enumerate(results):
        params += [r.player_id, r.whists, r.rating_before, r.rating_after, r.delta, r.pro_before, r.bot_max, order]
    for row in ratings:
        params += [row.player_id, row.rating, row.max_rating, row.league, row.deals, row.updated_at]
    params.append(to_finish[0] if to_finish else None)
    with bound_cursor() as cursor:
        cursor.execute(
            f"WITH d AS ({insert}), "
            f"r AS (INSERT INTO {DealResult._meta.db_table} (deal_id, player_id, whists, rating_before, rating_after, "
            "delta, pro_before, bot_max) SELECT d.id, x.player_id, x.whists, x.before, x.after, x.delta, x.pro, x.cap "
            f"FROM d CROSS JOIN (VALUES {result_rows}) AS x (player_id, whists, before, after, delta, pro, cap, ord) "
            "ORDER BY x.ord), "
            f"u AS (UPDATE {PreferansRating._meta.db_table} AS t SET rating = v.rating, max_rating = v.max_rating, "
            "league = v.league, deals = v.deals, updated_at = v.updated_at "
            f"FROM (VALUES {rating_rows}) AS v (player_id, rating, max_rating, league, deals, updated_at) "
            "WHERE t.player_id = v.player_id AND EXISTS (SELECT 1 FROM d)), "
            f"f AS (UPDATE {Game._meta.db_table} SET finished = true "
            "WHERE id = %s::bigint AND EXISTS (SELECT 1 FROM d)) "
            "SELECT id, number FROM d",
            params,
        )
        row = cursor.fetchone()
    if row is None:
        return False
    deal.id, deal.number = row
    deal._state.adding = False
    for result in results:
        result.deal = deal
    return True
