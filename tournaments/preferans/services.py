"""Writes of the preferans rating: games, deals applied once and in order, bulk imports (rules/preferans.md).

Every deal goes through ``deals_apply``: it locks the rating rows of everyone concerned (``SELECT ... FOR UPDATE``
ordered by player id, so two requests for the same player wait for each other and never deadlock), skips a deal
whose server id is already stored (a replay), rates each deal with the engine from the ratings everyone had before
it, and saves the deals, each player's change and the new ratings in one transaction: all of it or nothing.

``deals_import_bulk`` is the path for large histories: the same engine (``rate_deals``) over groups of deals that
share no player (so each group is rated at once, exactly as one by one), and ``COPY`` for the writes on PostgreSQL.
"""

from __future__ import annotations

import datetime
import math
import struct
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from federation.models import Player
from ratings.engines.common import EngineError
from ratings.engines.preferans import (
    DEFAULT_SETTINGS,
    PRO,
    PlayerState,
    PreferansSettings,
    league_for,
    new_player,
    rate_deal,
    rate_deals,
)
from ratings.engines.preferans import Deal as EngineDeal
from tournaments.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat

MIN_TABLE = 2
MAX_TABLE = 4


class PreferansError(ValueError):
    """Bad input for a preferans write: ``field`` names where (``deals[2].whists.15``), nothing was saved."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def rating_settings() -> PreferansSettings:
    """The rating's settings: the defaults of `rules/preferans.md` (see the module note of ``selectors``)."""
    return DEFAULT_SETTINGS


def bound_cursor():
    """A cursor for the hot statements of a deal: on PostgreSQL it sends the parameters apart from the statement.

    Django's psycopg cursors interpolate the parameters into the SQL text, so PostgreSQL parses and plans every
    statement again; with server-side binding psycopg prepares a statement the fifth time a connection runs it, and
    from then on a deal's statements are executed from their plans, with no array quoted into text. It is Django's
    own server-binding cursor class inside Django's wrapper, so the statements still appear in query logs and counts.
    On SQLite it is the ordinary cursor.
    """
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    raw = ServerBindingCursor(connection.connection)
    return connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)


# --- game servers ---------------------------------------------------------------------------------------------------


@transaction.atomic
def game_server_create(*, name: str) -> tuple[GameServer, str]:
    server = GameServer(name=name)
    token = server.set_new_token()
    server.full_clean()
    server.save()
    return server, token


@transaction.atomic
def game_server_token_rotate(*, server: GameServer) -> str:
    token = server.set_new_token()
    server.save(update_fields=["token_hash", "token_prefix"])
    return token


# --- games ----------------------------------------------------------------------------------------------------------


def _check_table(player_ids: Sequence, where: str) -> list[int]:
    if not isinstance(player_ids, list | tuple) or not player_ids:
        raise PreferansError(where, "is not a list of player ids")
    ids = []
    for index, value in enumerate(player_ids):
        if type(value) is not int or value <= 0:
            raise PreferansError(f"{where}[{index}]", f"{value!r} is not a player id")
        ids.append(value)
    if len(set(ids)) != len(ids):
        raise PreferansError(where, "names a player twice")
    if not MIN_TABLE <= len(ids) <= MAX_TABLE:
        raise PreferansError(where, f"a table has {MIN_TABLE} to {MAX_TABLE} players, this one has {len(ids)}")
    found = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
    for index, value in enumerate(ids):
        if value not in found:
            raise PreferansError(f"{where}[{index}]", f"there is no player {value}")
    return ids


@transaction.atomic
def game_create(
    *,
    server: GameServer | None,
    external_id: str,
    player_ids: Sequence[int],
    played_at: datetime.datetime | None = None,
    where: str = "players",
) -> tuple[Game, bool]:
    """Create a game with its table, or return the one with this id (then the table must be the same)."""
    ids = _check_table(player_ids, where)
    if external_id:
        existing = Game.objects.filter(server=server, external_id=external_id).first()
        if existing is not None:
            seated = sorted(existing.seats.values_list("player_id", flat=True))
            if seated != sorted(ids):
                raise PreferansError(where, f'game "{external_id}" already has another table ({seated})')
            return existing, False
    game = Game(server=server, external_id=external_id, played_at=played_at or timezone.now())
    game.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            game.save()
    except IntegrityError:
        raise PreferansError("id", f'game "{external_id}" was created at the same moment; send it again') from None
    Seat.objects.bulk_create([Seat(game=game, player_id=pid, seat=n) for n, pid in enumerate(ids, start=1)])
    ratings_ensure(player_ids=ids)
    return game, True


def ratings_ensure(*, player_ids: Sequence[int]) -> None:
    """Create the rating rows of newcomers (a bot starts at its level's maximum) before their first deal.

    Done when a game is created, so that the deals, which lock these rows, never have to insert one.
    """
    settings = rating_settings()
    have = set(PreferansRating.objects.filter(player_id__in=player_ids).values_list("player_id", flat=True))
    missing = [pid for pid in player_ids if pid not in have]
    if not missing:
        return
    now = timezone.now()
    fresh = []
    for player in Player.objects.filter(pk__in=missing).select_related("bot_level").order_by("pk"):
        cap = float(player.bot_level.max_rating) if player.is_bot and player.bot_level_id else None
        state = new_player(settings, bot_max=cap)
        fresh.append(
            PreferansRating(
                player=player, rating=state.rating, max_rating=state.max_rating, league=state.league, updated_at=now
            )
        )
    PreferansRating.objects.bulk_create(fresh, ignore_conflicts=True)


@transaction.atomic
def game_finish(*, game: Game) -> Game:
    """A finished game takes no more deals; a game left early keeps the deals played (`rules/preferans.md`)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if not game.finished:
        game.finished = True
        game.save(update_fields=["finished"])
    return game


# --- one deal or a batch --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealInput:
    game: Game
    whists: Mapping[int, int]
    external_id: str = ""
    finish: bool = False
    where: str = "deal"


@dataclass
class AppliedDeal:
    deal: Deal
    applied: bool
    results: list[DealResult] = field(default_factory=list)


def _whole(value, where: str) -> int:
    if type(value) is int:
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    raise PreferansError(where, f"{value!r} is not a whole number of whists")


def _check_whists(item: DealInput, seated: list[int]) -> dict[int, int]:
    where = f"{item.where}.whists"
    if not isinstance(item.whists, Mapping):
        raise PreferansError(where, "is not an object of player id: whists")
    if not MIN_TABLE <= len(item.whists) <= MAX_TABLE:
        raise PreferansError(where, f"a table has {MIN_TABLE} to {MAX_TABLE} players, this deal has {len(item.whists)}")
    whists: dict[int, int] = {}
    for key, value in item.whists.items():
        try:
            pid = int(key)
        except (TypeError, ValueError):
            raise PreferansError(f"{where}.{key}", f"{key!r} is not a player id") from None
        if pid not in seated:
            table = ", ".join(str(p) for p in seated)
            raise PreferansError(f"{where}.{key}", f"player {pid} is not at the table of this game ({table})")
        whists[pid] = _whole(value, f"{where}.{key}")
    missing = [pid for pid in seated if pid not in whists]
    if missing:
        raise PreferansError(where, f"player {missing[0]} of the game's table has no whists")
    total = sum(whists.values())
    if total:
        raise PreferansError(where, f"the whists sum to {total}, not to zero")
    return whists


def _lock_states(player_ids: set[int], settings: PreferansSettings) -> dict[int, tuple[PreferansRating, PlayerState]]:
    """Lock every rating row in player id order (no deadlock between requests), creating newcomers' rows first.

    A bot's state carries its level's maximum, read from the same row (``FOR UPDATE OF`` the rating row only).
    """

    rating_table = PreferansRating._meta.db_table
    columns, joins = _state_sql("r.player_id")
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
    return {pid: _state_of(pid, *row) for pid, row in rows.items()}


#: The fields of a rating row a deal changes.
_RATING_FIELDS = ["rating", "max_rating", "league", "deals", "updated_at"]


def _state_sql(join_on: str) -> tuple[str, str]:
    """The columns and joins that read a rating row ``r`` as ``_state_of`` takes it (with the bot's level maximum);
    ``join_on`` is the column the player joins on."""
    player_table = Player._meta.db_table
    level_table = Player._meta.get_field("bot_level").related_model._meta.db_table
    columns = "r.player_id, r.rating, r.max_rating, r.league, r.deals, r.updated_at, p.is_bot, b.max_rating"
    joins = (
        f"INNER JOIN {player_table} AS p ON p.id = {join_on} "
        f"LEFT OUTER JOIN {level_table} AS b ON b.id = p.bot_level_id "
    )
    return columns, joins


def _state_of(
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


def deals_apply(
    *, deals: Sequence[DealInput], server: GameServer | None = None, locked: LockedGame | None = None
) -> list[AppliedDeal]:
    """Apply deals in the given order, all or nothing; a deal whose id is already stored is returned, not re-applied.

    `rules/preferans.md`: every player at the table is rated on every deal from the ratings before it; the game's
    change is the sum of its deals'. Raises ``PreferansError`` naming the field of the first bad deal. ``locked`` is
    the game already locked in this transaction (``game_lock_for_token``) when all the deals are for it.
    """
    try:
        return _deals_apply(deals=deals, server=server, locked=locked)
    except IntegrityError:
        raise PreferansError("id", "a deal id of this request was stored at the same moment; send it again") from None


# No savepoint of its own: inside a caller's transaction (the API's, the import's) a failure rolls all of it back.
@transaction.atomic(savepoint=False)
def _deals_apply(
    *, deals: Sequence[DealInput], server: GameServer | None, locked: LockedGame | None
) -> list[AppliedDeal]:
    settings = rating_settings()
    if not deals:
        return []
    game_ids = sorted({item.game.pk for item in deals})
    if locked is None or [locked.game.pk] != game_ids:
        locked = _lock_one_game(game_ids[0]) if len(game_ids) == 1 and connection.vendor == "postgresql" else None
    if locked is not None:
        games, seats, locked_states = {locked.game.pk: locked.game}, {locked.game.pk: locked.seats}, locked.states
    else:
        games, seats = _lock_games(game_ids)
        locked_states = None
    checked = []
    finished = {pk for pk, g in games.items() if g.finished}
    for item in deals:
        game = games[item.game.pk]
        if server is not None and game.server_id != server.pk:
            raise PreferansError(f"{item.where}.game", "this game belongs to another game server")
        whists = _check_whists(item, seats[game.pk])
        checked.append((item, game, whists))
    player_ids = {pid for _, _, whists in checked for pid in whists}
    states = locked_states if locked_states is not None else _lock_states(player_ids, settings)

    # Replays and the games' last deal numbers: after the locks, so a concurrent first copy of the same deal has
    # committed or not started.
    server_ids = {game.server_id for _, game, _ in checked}
    external = sorted({item.external_id for item, _, _ in checked if item.external_id})
    # A game server's single deal on PostgreSQL (its usual request): the write itself settles the replay (nothing is
    # written when the server's deal id is stored) and the deal's number (the game's last plus one, read by the
    # write, which runs after the lock): one statement less on the hot path.
    first_item, first_game, _whists = checked[0]
    settle_in_write = (
        len(checked) == 1
        and connection.vendor == "postgresql"
        and first_game.server_id is not None
        and bool(first_item.external_id)
        and first_game.pk not in finished
    )
    known, numbers = ({}, {}) if settle_in_write else _stored_deals(game_ids, server_ids, external)
    now = timezone.now()
    out: list[AppliedDeal] = []
    new_deals: list[Deal] = []
    pending_results: list[list[DealResult]] = []
    seen: set[tuple] = set()
    touched: set[int] = set()
    for item, game, whists in checked:
        key = (game.server_id, None, item.external_id) if game.server_id else (None, game.pk, item.external_id)
        if item.external_id and (key in known or key in seen):
            stored = known.get(key)
            if stored is None:
                raise PreferansError(f"{item.where}.id", f'deal "{item.external_id}" appears twice in this request')
            if stored.game_id != game.pk:
                raise PreferansError(f"{item.where}.id", f'deal "{item.external_id}" is stored for another game')
            out.append(AppliedDeal(deal=stored, applied=False))
            continue
        if game.pk in finished:
            raise PreferansError(f"{item.where}.game", "the game is finished and takes no more deals")
        if item.external_id:
            seen.add(key)
        names = {pid: str(pid) for pid in whists}
        before = {names[pid]: states[pid][1] for pid in whists}
        try:
            outcome = rate_deal(before, {names[pid]: v for pid, v in whists.items()}, settings)
        except EngineError as error:
            raise PreferansError(f"{item.where}.whists", error.message) from None
        numbers[game.pk] = numbers.get(game.pk, 0) + 1
        deal = Deal(
            game=game, server_id=game.server_id, external_id=item.external_id, number=numbers[game.pk], applied_at=now
        )
        results = []
        for change in outcome.changes:
            pid = int(change.player)
            row, _state = states[pid]
            states[pid] = (row, change.after)
            row.deals += 1
            touched.add(pid)
            results.append(
                DealResult(
                    player_id=pid,
                    whists=change.whists,
                    rating_before=change.before.rating,
                    rating_after=change.after.rating,
                    delta=change.delta,
                    pro_before=change.before.league == PRO,
                    bot_max=change.before.bot_max,
                )
            )
        if item.finish:
            finished.add(game.pk)
        new_deals.append(deal)
        pending_results.append(results)
        out.append(AppliedDeal(deal=deal, applied=True, results=results))
    rows = []
    for pid in sorted(touched):
        row, state = states[pid]
        row.rating, row.max_rating, row.league, row.updated_at = state.rating, state.max_rating, state.league, now
        rows.append(row)
    to_finish = sorted(pk for pk in finished if not games[pk].finished)
    if settle_in_write:
        if _write_one_deal(new_deals[0], pending_results[0], rows, to_finish, settle=True):
            return out
        # A replay: nothing was written. Answer with the stored deal, as the general path does.
        known, _numbers = _stored_deals(game_ids, server_ids, external)
        stored = known[(first_game.server_id, None, first_item.external_id)]
        if stored.game_id != first_game.pk:
            raise PreferansError(
                f"{first_item.where}.id", f'deal "{first_item.external_id}" is stored for another game'
            )
        return [AppliedDeal(deal=stored, applied=False)]
    _write_deals(new_deals, pending_results, rows, to_finish)
    return out


def _lock_games(game_ids: list[int]) -> tuple[dict[int, Game], dict[int, list[int]]]:
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
    """One game locked with its table and its players' rating rows, ready for ``deals_apply(locked=...)``."""

    server: GameServer | None
    game: Game
    seats: list[int]
    states: dict[int, tuple[PreferansRating, PlayerState]]


def game_lock_for_token(*, token_hash: str, game_id: int) -> LockedGame | None:
    """A game server's deal, on PostgreSQL: in one statement, check that the token is an active server's and the game
    is that server's, lock the game and its players' rating rows (``_lock_one_game``).

    None when anything is off (unknown token, no such game, another server's game, a newcomer without a rating row)
    and on SQLite: the caller then takes the general path, which names the problem.
    """
    if connection.vendor != "postgresql":
        return None
    return _lock_one_game(game_id, token_hash=token_hash)


def _lock_one_game(game_id: int, token_hash: str | None = None) -> LockedGame | None:
    """PostgreSQL, one game: lock the game, read its table and lock its players' rating rows in one statement; with
    ``token_hash``, only a game of that token's active server.

    The rows come out ordered by player id and PostgreSQL locks them in that order, the game with the first row: the
    order of ``_lock_games`` then ``_lock_states`` (games, then players by id), so the two paths cannot deadlock.
    Returns None when there is no such game or a seated player has no rating row yet: the general path handles that.
    """
    game_table, seat_table, rating_table = Game._meta.db_table, Seat._meta.db_table, PreferansRating._meta.db_table
    columns, joins = _state_sql("s.player_id")
    server_join, params = "", [game_id]
    if token_hash is not None:
        server_join = (
            f"INNER JOIN {GameServer._meta.db_table} AS v ON v.id = g.server_id AND v.token_hash = %s AND v.is_active "
        )
        params = [token_hash, game_id]
    server_name = "v.name" if token_hash is not None else "NULL"
    with bound_cursor() as cursor:
        cursor.execute(
            f"SELECT g.server_id, {server_name}, g.external_id, g.finished, s.seat, s.id, "
            f"(SELECT COUNT(*) FROM {seat_table} AS c WHERE c.game_id = g.id), {columns} "
            f"FROM {game_table} AS g {server_join}INNER JOIN {seat_table} AS s ON s.game_id = g.id "
            f"INNER JOIN {rating_table} AS r ON r.player_id = s.player_id {joins}"
            "WHERE g.id = %s ORDER BY r.player_id FOR UPDATE OF g, r",
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
    states = {row[7]: _state_of(*row[7:]) for row in rows}
    return LockedGame(server=server, game=game, seats=[row[7] for row in seated], states=states)


def _stored_deals(
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


def _write_deals(
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
            PreferansRating.objects.bulk_update(ratings, _RATING_FIELDS)
        if to_finish:
            Game.objects.filter(pk__in=to_finish).update(finished=True)
        return
    if len(new_deals) == 1 and len(to_finish) <= 1:
        _write_one_deal(new_deals[0], results[0], ratings, to_finish)
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
        [r.player_id for r in ratings],
        [r.rating for r in ratings],
        [r.max_rating for r in ratings],
        [r.league for r in ratings],
        [r.deals for r in ratings],
        [r.updated_at for r in ratings],
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


def _write_one_deal(
    deal: Deal, results: list[DealResult], ratings: list[PreferansRating], to_finish: list[int], settle: bool = False
) -> bool:
    """``_write_deals`` for one deal, on PostgreSQL: the same single statement with plain parameters in ``VALUES``
    rows instead of arrays, which psycopg sends without building array literals.

    With ``settle`` (a game server's deal, see ``_deals_apply``) the statement also numbers the deal (the game's last
    number plus one) and writes nothing when the server's deal id is already stored; returns whether it wrote.
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


# --- bulk import ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BulkGame:
    key: str
    player_ids: tuple[int, ...]
    played_at: datetime.datetime
    finished: bool = True


@dataclass(frozen=True)
class BulkDeal:
    game: str
    whists: Mapping[int, int]
    external_id: str = ""


@dataclass(frozen=True)
class BulkReport:
    games: int
    deals: int
    results: int


@transaction.atomic
def deals_import_bulk(
    *, games: Sequence[BulkGame], deals: Sequence[BulkDeal], server: GameServer | None = None
) -> BulkReport:
    """Import new games and their deals, in the given order, in one transaction (a batch of a large history).

    The deals are split into levels: a deal's level is one more than the last level of any of its players, so the
    deals of one level share no player and ``rate_deals`` rates a whole level at once, with exactly the numbers of
    applying the deals one by one (each deal reads only its own players' ratings).
    """
    settings = rating_settings()
    game_index = {}
    for index, game in enumerate(games):
        where = f"games[{index}]"
        if game.key in game_index:
            raise PreferansError(f"{where}.key", f'game "{game.key}" is listed twice')
        if not MIN_TABLE <= len(game.player_ids) <= MAX_TABLE or len(set(game.player_ids)) != len(game.player_ids):
            raise PreferansError(f"{where}.players", "a table has 2 to 4 different players")
        game_index[game.key] = index
    if Game.objects.filter(server=server, external_id__in=list(game_index)).exists():
        raise PreferansError("games", "some of these games are already stored")
    tables = [frozenset(game.player_ids) for game in games]
    whists_of: list[dict[str, int]] = []
    deal_game: list[int] = []
    names: dict[int, str] = {}
    for index, deal in enumerate(deals):
        where = f"deals[{index}]"
        position = game_index.get(deal.game)
        if position is None:
            raise PreferansError(f"{where}.game", f'game "{deal.game}" is not in this import')
        if deal.whists.keys() != tables[position]:
            raise PreferansError(f"{where}.whists", f'the players are not the table of game "{deal.game}"')
        converted = {}
        total = 0
        for pid, value in deal.whists.items():
            whole = _whole(value, f"{where}.whists.{pid}")
            total += whole
            name = names.get(pid)
            if name is None:
                name = names[pid] = str(pid)
            converted[name] = whole
        if total:
            raise PreferansError(f"{where}.whists", f"the whists sum to {total}, not to zero")
        whists_of.append(converted)
        deal_game.append(position)

    player_ids = {pid for game in games for pid in game.player_ids}
    if len(Player.objects.filter(pk__in=player_ids)) != len(player_ids):
        raise PreferansError("games", "a player id of these games does not exist")
    locked = _lock_states(player_ids, settings)
    state: dict[str, PlayerState] = {str(pid): locked[pid][1] for pid in player_ids}

    last_level: dict[str, int] = {}
    levels: list[list[int]] = []
    for index, whists in enumerate(whists_of):
        level = 0
        for name in whists:
            seen = last_level.get(name, -1) + 1
            if seen > level:
                level = seen
        for name in whists:
            last_level[name] = level
        if level == len(levels):
            levels.append([])
        levels[level].append(index)

    # One row per player per deal, rated level by level: (player id, whists, before, after, delta, pro before, bot
    # max). On PostgreSQL the rows stream into COPY as each level is rated, so the server stores them meanwhile.
    def rated():
        for members in levels:
            level_deals = [EngineDeal(game=str(deal_game[i]), whists=whists_of[i]) for i in members]
            level_states = {name: state[name] for i in members for name in whists_of[i]}
            after_states = rate_deals(level_deals, level_states, settings).players
            out = []
            for i in members:
                rows = []
                for name, value in whists_of[i].items():
                    old = level_states[name]
                    new = after_states[name]
                    state[name] = new
                    rows.append(
                        (
                            int(name),
                            value,
                            old.rating,
                            new.rating,
                            new.rating - old.rating,
                            old.league == PRO,
                            old.bot_max,
                        )
                    )
                out.append((i, rows))
            yield out

    now = timezone.now()
    server_id = server.pk if server else None
    counter = [0] * len(games)
    numbers = []
    for position in deal_game:
        counter[position] += 1
        numbers.append(counter[position])
    external = [deal.external_id for deal in deals]
    if connection.vendor == "postgresql":
        count = _copy_import(games, server_id, now, deal_game, numbers, external, rated())
    else:
        count = _create_import(games, server_id, now, deal_game, numbers, external, rated())

    deals_per_player: dict[int, int] = defaultdict(int)
    for whists in whists_of:
        for name in whists:
            deals_per_player[int(name)] += 1
    updates = []
    for pid in sorted(player_ids):
        row = locked[pid][0]
        final = state[str(pid)]
        row.rating, row.max_rating = final.rating, final.max_rating
        row.league = league_for(final.league, final.rating, settings)
        row.deals += deals_per_player[pid]
        row.updated_at = now
        updates.append(row)
    _write_ratings(updates)
    return BulkReport(games=len(games), deals=len(deals), results=count)


def _create_import(games, server_id, now, deal_game, numbers, external, rated) -> int:
    """The bulk import's writes through the ORM (SQLite): the same rows as ``_copy_import``."""
    game_rows = Game.objects.bulk_create(
        [Game(server_id=server_id, external_id=g.key, played_at=g.played_at, finished=g.finished) for g in games]
    )
    Seat.objects.bulk_create(
        [
            Seat(game=row, player_id=pid, seat=n)
            for row, game in zip(game_rows, games, strict=True)
            for n, pid in enumerate(game.player_ids, start=1)
        ],
        batch_size=5000,
    )
    deal_objects = Deal.objects.bulk_create(
        [
            Deal(game_id=game_rows[p].pk, server_id=server_id, external_id=e, number=n, applied_at=now)
            for p, n, e in zip(deal_game, numbers, external, strict=True)
        ],
        batch_size=500,
    )
    by_deal: list[list[tuple]] = [[] for _ in deal_objects]
    for level in rated:
        for i, rows in level:
            by_deal[i] = rows
    results = [
        DealResult(
            deal=deal,
            player_id=pid,
            whists=whists,
            rating_before=before,
            rating_after=after,
            delta=delta,
            pro_before=pro,
            bot_max=cap,
        )
        for deal, rows in zip(deal_objects, by_deal, strict=True)
        for pid, whists, before, after, delta, pro, cap in rows
    ]
    DealResult.objects.bulk_create(results, batch_size=500)
    return len(results)


# PostgreSQL's binary COPY: a header, rows of (field count, then each field's length and bytes), a trailer.
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = struct.pack(">h", -1)
_NULL = struct.pack(">i", -1)
_PG_EPOCH = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
# deal_id, player_id, whists, rating_before, rating_after, delta, pro_before; then bot_max or NULL.
_RESULT_ROW = struct.Struct(">hiqiqiiidididi?")
_FLOAT = struct.Struct(">id")
# game_id, server_id (or NULL), number, applied_at, id; then external_id.
_BIGINT = struct.Struct(">iq")


def _micros(moment: datetime.datetime) -> int:
    delta = moment - _PG_EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _copy_import(games, server_id, now, deal_game, numbers, external, rated) -> int:
    """The bulk import's writes on PostgreSQL: ids drawn from the sequences, then binary ``COPY`` of every table.

    The foreign keys are checked by PostgreSQL as always (deferred to the commit), nothing is skipped.
    """
    game_table, deal_table = Game._meta.db_table, Deal._meta.db_table
    with connection.cursor() as cursor:
        raw = cursor.cursor

        def ids(table: str, count: int) -> list[int]:
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, count]
            )
            return [row[0] for row in cursor.fetchall()]

        game_ids = ids(game_table, len(games))
        with raw.copy(
            f"COPY {game_table} (id, server_id, external_id, played_at, finished, created_at) FROM STDIN"
        ) as copy:
            for pk, game in zip(game_ids, games, strict=True):
                copy.write_row((pk, server_id, game.key, game.played_at, game.finished, now))
        with raw.copy(f"COPY {Seat._meta.db_table} (game_id, player_id, seat) FROM STDIN") as copy:
            for pk, game in zip(game_ids, games, strict=True):
                for n, pid in enumerate(game.player_ids, start=1):
                    copy.write_row((pk, pid, n))

        deal_ids = ids(deal_table, len(deal_game))
        server_field = _NULL if server_id is None else _BIGINT.pack(8, server_id)
        applied = _BIGINT.pack(8, _micros(now))
        head = struct.Struct(">hiq")  # field count, then the id
        number_field = struct.Struct(">ii")
        parts = [_COPY_HEADER]
        for deal_id, position, number, text in zip(deal_ids, deal_game, numbers, external, strict=True):
            data = text.encode("utf-8")
            parts.append(
                head.pack(6, 8, deal_id)
                + _BIGINT.pack(8, game_ids[position])
                + server_field
                + struct.pack(">i", len(data))
                + data
                + number_field.pack(4, number)
                + applied
            )
        parts.append(_COPY_TRAILER)
        with raw.copy(
            f"COPY {deal_table} (id, game_id, server_id, external_id, number, applied_at) FROM STDIN (FORMAT binary)"
        ) as copy:
            copy.write(b"".join(parts))

        count = 0
        pack, pack_float = _RESULT_ROW.pack, _FLOAT.pack
        with raw.copy(
            f"COPY {DealResult._meta.db_table} (deal_id, player_id, whists, rating_before, rating_after, delta, "
            "pro_before, bot_max) FROM STDIN (FORMAT binary)"
        ) as copy:
            copy.write(_COPY_HEADER)
            for level in rated:
                chunk = []
                for i, rows in level:
                    deal_id = deal_ids[i]
                    for pid, whists, before, after, delta, pro, cap in rows:
                        chunk.append(pack(8, 8, deal_id, 8, pid, 4, whists, 8, before, 8, after, 8, delta, 1, pro))
                        chunk.append(_NULL if cap is None else pack_float(8, cap))
                    count += len(rows)
                copy.write(b"".join(chunk))
            copy.write(_COPY_TRAILER)
    return count


def _write_ratings(rows: list[PreferansRating]) -> None:
    if connection.vendor != "postgresql":
        PreferansRating.objects.bulk_update(rows, _RATING_FIELDS, batch_size=500)
        return
    table = PreferansRating._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE pref_rating_load (player_id bigint, rating double precision, "
            "max_rating double precision, league varchar(10), deals integer, updated_at timestamptz) ON COMMIT DROP"
        )
        with cursor.cursor.copy("COPY pref_rating_load FROM STDIN") as copy:
            for row in rows:
                copy.write_row((row.player_id, row.rating, row.max_rating, row.league, row.deals, row.updated_at))
        cursor.execute(
            f"UPDATE {table} AS r SET rating = l.rating, max_rating = l.max_rating, league = l.league, "
            "deals = l.deals, updated_at = l.updated_at FROM pref_rating_load AS l WHERE r.player_id = l.player_id"
        )
        cursor.execute("DROP TABLE pref_rating_load")


# --- the admin's CSV import -----------------------------------------------------------------------------------------


@dataclass
class ImportOutcome:
    applied: list[AppliedDeal]
    games_created: int


def deals_import_rows(*, deals: Sequence, dry_run: bool) -> ImportOutcome:
    """Create the new games and apply the parsed deals (``importing.ParsedDeal``), all or nothing.

    ``dry_run`` rates everything and rolls back: the preview shows the very changes the import will make. A bad deal
    raises ``PreferansError`` whose field is ``row N.<column>``.
    """
    with transaction.atomic():
        games: dict[str, Game] = {}
        created = 0
        inputs = []
        for parsed in deals:
            where = f"row {parsed.rows[0]}"
            game = games.get(parsed.game)
            if game is None:
                game = Game.objects.filter(server__isnull=True, external_id=parsed.game).first()
                if game is None:
                    played_at = None
                    if parsed.date:
                        played_at = timezone.make_aware(datetime.datetime.combine(parsed.date, datetime.time(12)))
                    game, _new = game_create(
                        server=None,
                        external_id=parsed.game,
                        player_ids=list(parsed.whists),
                        played_at=played_at,
                        where=f"{where}.player_id",
                    )
                    created += 1
                games[parsed.game] = game
            inputs.append(DealInput(game=game, whists=parsed.whists, external_id=parsed.deal, where=where))
        applied = deals_apply(deals=inputs)
        if dry_run:
            transaction.set_rollback(True)
    return ImportOutcome(applied=applied, games_created=created)
