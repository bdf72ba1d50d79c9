"""Writes of the preferans rating: games, deals applied once and in order, bulk imports (rules/preferans.md).

Every deal goes through ``deals_apply``: it locks the rating rows of everyone concerned (``SELECT ... FOR UPDATE``
ordered by player id, so two requests for the same player wait for each other and never deadlock), skips a deal
whose server id is already stored (a replay), rates each deal with the engine from the ratings everyone had before
it, and saves the deals, each player's change and the new ratings in one transaction: all of it or nothing.

``deals_import_bulk`` is the path for large histories: the same engine arithmetic (``DealRun``, deal after deal),
and ``COPY`` for the writes on PostgreSQL, with the foreign keys checked once per batch rather than once per row.
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
    DealRun,
    DealWhists,
    PlayerState,
    PreferansSettings,
    league_for,
    new_player,
    rate_deal,
)
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat

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

    The deals are rated one after another by the engine's ``DealRun`` (the arithmetic of ``rate_deals`` and of every
    other path), and on PostgreSQL each deal's rows stream into ``COPY`` while the next deals are rated. The players
    are locked as a deal locks them (their rating rows ``FOR UPDATE``, in id order) and their member rows
    ``FOR KEY SHARE``, as a foreign-key check would, so none of them can be deleted before the batch commits.
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
    names: dict[int, str] = {}
    tables = []
    for game in games:
        for pid in game.player_ids:
            if pid not in names:
                names[pid] = str(pid)
        tables.append(frozenset(game.player_ids))
    player_ids = set(names)
    if len(_key_share_players(player_ids)) != len(player_ids):
        raise PreferansError("games", "a player id of these games does not exist")
    locked = _lock_states(player_ids, settings)

    engine_deals: list[DealWhists] = []

    # The deals are checked as they are written (on PostgreSQL, while the server stores the ones before): each
    # yields (its game's position, its number in the game, its server id) and is added to ``engine_deals``. A bad
    # deal raises and rolls the whole batch back.
    def checked():
        counter = [0] * len(games)
        for index, deal in enumerate(deals):
            position = game_index.get(deal.game)
            if position is None:
                raise PreferansError(f"deals[{index}].game", f'game "{deal.game}" is not in this import')
            whists = deal.whists
            if whists.keys() != tables[position]:
                raise PreferansError(f"deals[{index}].whists", f'the players are not the table of game "{deal.game}"')
            converted = {names[pid]: value for pid, value in whists.items()}
            for pid, value in whists.items():
                if type(value) is not int:
                    converted[names[pid]] = _whole(value, f"deals[{index}].whists.{pid}")
            total = sum(converted.values())
            if total:
                raise PreferansError(f"deals[{index}].whists", f"the whists sum to {total}, not to zero")
            engine_deals.append(DealWhists(game=deal.game, whists=converted))
            counter[position] += 1
            yield position, counter[position], deal.external_id

    # The run reads ``engine_deals`` when the writer asks for the first step, once every deal has been checked;
    # ``checked=True``: they were checked above as the engine would check them, with this import's field names.
    run = DealRun(engine_deals, {names[pid]: locked[pid][1] for pid in player_ids}, settings, checked=True)
    player = BulkPlayers(
        ids={name: pid for pid, name in names.items()},
        caps={name: locked[pid][1].bot_max for pid, name in names.items()},
    )
    # Each deal's step: its whists, then the engine's (names, before, after, Pro before).
    steps = ((deal.whists, *step) for deal, step in zip(engine_deals, run, strict=True))

    now = timezone.now()
    server_id = server.pk if server else None
    writer = _copy_import if connection.vendor == "postgresql" else _create_import
    count = writer(games, len(deals), server_id, now, checked(), steps, player)

    final = run.players()
    deals_per_player: dict[int, int] = defaultdict(int)
    for deal in engine_deals:
        for name in deal.whists:
            deals_per_player[player.ids[name]] += 1
    updates = []
    for pid in sorted(player_ids):
        row = locked[pid][0]
        state = final[names[pid]]
        row.rating, row.max_rating = state.rating, state.max_rating
        row.league = league_for(state.league, state.rating, settings)
        row.deals += deals_per_player[pid]
        row.updated_at = now
        updates.append(row)
    _write_ratings(updates)
    return BulkReport(games=len(games), deals=len(deals), results=count)


def analyze_after_import() -> None:
    """Refresh PostgreSQL's statistics of the tables a bulk import wrote (as its manual advises after a bulk load).

    Without them, until autovacuum comes by (and never where it is off), the planner takes a table it has not seen
    grow as nearly empty: a game server's deal then read its seats and players by sequential scans, and its median
    went from 16 to 29 ms after a million-deal import.
    """
    if connection.vendor != "postgresql":
        return
    tables = [m._meta.db_table for m in (Game, Seat, Deal, DealResult, PreferansRating, Player)]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE " + ", ".join(tables))


@dataclass(frozen=True)
class BulkPlayers:
    """The import's players by the engine's names: their ids and their bots' maximums (``None`` for a human)."""

    ids: dict[str, int]
    caps: dict[str, float | None]


def _key_share_players(player_ids: set[int]) -> list[int]:
    """The players that exist among ``player_ids``; on PostgreSQL their rows are locked ``FOR KEY SHARE`` (what a
    foreign-key check takes: nobody can delete them or change their id before this transaction ends)."""
    ids = sorted(player_ids)
    if connection.vendor != "postgresql":
        return list(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id FROM {Player._meta.db_table} WHERE id = ANY(%s) ORDER BY id FOR KEY SHARE", [ids])
        return [row[0] for row in cursor.fetchall()]


def _create_import(games, deal_count, server_id, now, checked, steps, player: BulkPlayers) -> int:
    """The bulk import's writes through the ORM (SQLite): the same rows as ``_copy_import``."""
    checked = list(checked)
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
            for p, n, e in checked
        ],
        batch_size=500,
    )
    results = [
        DealResult(
            deal=deal,
            player_id=player.ids[name],
            whists=whists[name],
            rating_before=before[k],
            rating_after=after[k],
            delta=after[k] - before[k],
            pro_before=pro_before[k],
            bot_max=player.caps[name],
        )
        for deal, (whists, deal_names, before, after, pro_before) in zip(deal_objects, steps, strict=True)
        for k, name in enumerate(deal_names)
    ]
    DealResult.objects.bulk_create(results, batch_size=500)
    return len(results)


# PostgreSQL's binary COPY: a header, rows of (field count, then each field's length and bytes), a trailer.
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = struct.pack(">h", -1)
_NULL = struct.pack(">i", -1)
_PG_EPOCH = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
# deal_id, player_id, whists, rating_before, rating_after, delta, pro_before, bot_max (a bot's; NULL for a human).
_RESULT_ROW = struct.Struct(">hiqiqiiidididi?id")
_HUMAN_ROW = struct.Struct(">hiqiqiiidididi?i")
# game_id, server_id (or NULL), number, applied_at, id; then external_id.
_BIGINT = struct.Struct(">iq")
#: Deals whose result rows go to ``COPY`` in one write.
_COPY_CHUNK = 2000


def _micros(moment: datetime.datetime) -> int:
    delta = moment - _PG_EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _draw_ids(cursor, table: str, count: int) -> Sequence[int]:
    """``count`` new ids from ``table``'s sequence: one row back (a range) unless other sessions drew ids meanwhile.

    The sequence's name is looked up once (the scalar subquery): looked up for every row it cost 3.5 µs a row.
    """
    if not count:
        return []
    cursor.execute(
        "SELECT min(v), max(v), CASE WHEN max(v) - min(v) + 1 = count(*) THEN NULL ELSE array_agg(v ORDER BY v) END "
        "FROM (SELECT nextval((SELECT pg_get_serial_sequence(%s, 'id')::regclass)) AS v "
        "FROM generate_series(1, %s)) AS s",
        [table, count],
    )
    low, high, scattered = cursor.fetchone()
    return scattered if scattered is not None else range(low, high + 1)


def _copy_import(games, deal_count, server_id, now, checked, steps, player: BulkPlayers) -> int:
    """The bulk import's writes on PostgreSQL: ids drawn from the sequences, then binary ``COPY`` of every table.

    PostgreSQL checks a foreign key with one query per row written: that was nearly half of a large import's time.
    Where the database role may (a superuser, or ``GRANT SET ON PARAMETER session_replication_role``), and where the
    batch's ids came as two unbroken ranges (nobody else drew ids meanwhile), this transaction turns those per-row
    checks off while it copies (``session_replication_role = replica``; the tables have no other trigger) and has
    PostgreSQL check every key of the rows it wrote afterwards, a few queries for the batch (``_check_keys``); a
    broken key raises and the whole batch is rolled back. The players and the server the rows name are locked
    ``FOR KEY SHARE`` first, exactly as the per-row checks would lock them. Otherwise the per-row checks run as
    always: the same rows, more slowly.
    """
    game_table, deal_table = Game._meta.db_table, Deal._meta.db_table
    with connection.cursor() as cursor:
        raw = cursor.cursor
        game_ids = _draw_ids(cursor, game_table, len(games))
        deal_ids = _draw_ids(cursor, deal_table, deal_count)
        ranges = isinstance(game_ids, range) and isinstance(deal_ids, range)
        role = _row_checks_off(cursor, server_id) if ranges else None
        seats = 0
        with raw.copy(
            f"COPY {game_table} (id, server_id, external_id, played_at, finished, created_at) FROM STDIN"
        ) as copy:
            for pk, game in zip(game_ids, games, strict=True):
                copy.write_row((pk, server_id, game.key, game.played_at, game.finished, now))
        with raw.copy(f"COPY {Seat._meta.db_table} (game_id, player_id, seat) FROM STDIN") as copy:
            for pk, game in zip(game_ids, games, strict=True):
                for n, pid in enumerate(game.player_ids, start=1):
                    copy.write_row((pk, pid, n))
                seats += len(game.player_ids)

        server_field = _NULL if server_id is None else _BIGINT.pack(8, server_id)
        applied = _BIGINT.pack(8, _micros(now))
        head = struct.Struct(">hiq")  # field count, then the id
        number_field = struct.Struct(">ii")
        with raw.copy(
            f"COPY {deal_table} (id, game_id, server_id, external_id, number, applied_at) FROM STDIN (FORMAT binary)"
        ) as copy:
            parts = [_COPY_HEADER]
            for deal_id, (position, number, text) in zip(deal_ids, checked, strict=True):
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
                if len(parts) >= _COPY_CHUNK:
                    copy.write(b"".join(parts))
                    parts = []
            parts.append(_COPY_TRAILER)
            copy.write(b"".join(parts))

        count = 0
        bot, human = _RESULT_ROW.pack, _HUMAN_ROW.pack
        ids, caps = player.ids, player.caps
        with raw.copy(
            f"COPY {DealResult._meta.db_table} (deal_id, player_id, whists, rating_before, rating_after, delta, "
            "pro_before, bot_max) FROM STDIN (FORMAT binary)"
        ) as copy:
            copy.write(_COPY_HEADER)
            chunk = []
            for deal_id, (whists, deal_names, before, after, pro_before) in zip(deal_ids, steps, strict=True):
                for k, name in enumerate(deal_names):
                    old, new, cap = before[k], after[k], caps[name]
                    row = (8, 8, deal_id, 8, ids[name], 4, whists[name], 8, old, 8, new, 8, new - old, 1, pro_before[k])
                    chunk.append(human(*row, -1) if cap is None else bot(*row, 8, cap))
                count += len(deal_names)
                if len(chunk) >= _COPY_CHUNK:
                    copy.write(b"".join(chunk))
                    chunk = []
            chunk.append(_COPY_TRAILER)
            copy.write(b"".join(chunk))
        if role is not None:
            _check_keys(cursor, game_ids, deal_ids, seats, count, sorted(player.ids.values()), server_id)
            cursor.execute("SELECT set_config('session_replication_role', %s, true)", [role])
    return count


def _row_checks_off(cursor, server_id: int | None) -> str | None:
    """Turn this transaction's per-row foreign-key checks off if the role may; the setting to restore, or ``None``.

    The server the rows name is locked ``FOR KEY SHARE`` first (the players already are, by ``_key_share_players``).
    """
    cursor.execute(
        "SELECT current_setting('session_replication_role'), current_setting('is_superuser') = 'on' "
        + ("OR has_parameter_privilege('session_replication_role', 'SET')" if connection.pg_version >= 150000 else "")
    )
    role, allowed = cursor.fetchone()
    if not allowed or role != "origin":
        return None
    if server_id is not None:
        cursor.execute(f"SELECT id FROM {GameServer._meta.db_table} WHERE id = %s FOR KEY SHARE", [server_id])
        if cursor.fetchone() is None:
            return None  # the per-row checks will refuse the rows
    cursor.execute("SET LOCAL session_replication_role = replica")
    return role


def _check_keys(
    cursor, game_ids: range, deal_ids: range, seats: int, results: int, players: list[int], server_id: int | None
) -> None:
    """Have PostgreSQL check every foreign key of the rows this batch wrote, with one query per table.

    The batch's games and deals hold two unbroken id ranges that this transaction drew from the sequences, so no other
    session can have written a row naming them. Each query counts the rows naming an id of the range: there must be
    exactly as many as this batch wrote (none went elsewhere), every id of the range must exist, and every other key
    must be the server or one of the players locked ``FOR KEY SHARE`` (which exist and cannot go away).
    """
    game, deal, seat, result = (m._meta.db_table for m in (Game, Deal, Seat, DealResult))
    g0, g1, d0, d1 = game_ids.start, game_ids.stop - 1, deal_ids.start, deal_ids.stop - 1
    checks = [
        (
            f"{game}.server_id",
            f"SELECT count(*), count(*) FILTER (WHERE server_id IS DISTINCT FROM %s) FROM {game} "
            "WHERE id BETWEEN %s AND %s",
            [server_id, g0, g1],
            len(game_ids),
        ),
        (
            f"{deal}.game_id",
            f"SELECT count(*), count(*) FILTER (WHERE game_id NOT BETWEEN %s AND %s "
            f"OR server_id IS DISTINCT FROM %s) FROM {deal} WHERE id BETWEEN %s AND %s",
            [g0, g1, server_id, d0, d1],
            len(deal_ids),
        ),
        (
            f"{seat}.player_id",
            f"SELECT count(*), count(*) FILTER (WHERE p.id IS NULL) FROM {seat} AS t "
            "LEFT JOIN unnest(%s::bigint[]) AS p (id) ON p.id = t.player_id WHERE t.game_id BETWEEN %s AND %s",
            [players, g0, g1],
            seats,
        ),
        (
            f"{result}.player_id",
            f"SELECT count(*), count(*) FILTER (WHERE p.id IS NULL) FROM {result} AS r "
            "LEFT JOIN unnest(%s::bigint[]) AS p (id) ON p.id = r.player_id WHERE r.deal_id BETWEEN %s AND %s",
            [players, d0, d1],
            results,
        ),
    ]
    for where, query, params, written in checks:
        cursor.execute(query, params)
        found, broken = cursor.fetchone()
        if found != written or broken:
            raise IntegrityError(
                f"{where}: this import wrote {written} rows, {found} name its rows and {broken} of them a row that "
                "does not exist"
            )


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
