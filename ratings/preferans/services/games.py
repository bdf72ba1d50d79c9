"""Games and their tables: a game seats 2 to 4 players, who get their rating rows before the first deal."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from federation import versions
from federation.models import Player
from ratings.engines.preferans import AMATEUR, PlayerState, PreferansSettings, league_for, new_player
from ratings.models import Engine, StartingRating
from ratings.preferans.models import Game, GameServer, PreferansRating, Seat
from ratings.preferans.services.common import MAX_TABLE, MIN_TABLE, PreferansError
from ratings.preferans.services.rating_list import rating_settings

#: Federation staff for preferans: they change any game and rate deals into it. The organisers' group does not hold
#: it (``federation.roles``); organisers change only the games they own (``Game.owner``).
STAFF_PERMISSION = "preferans.change_gameserver"


def games_owned(*, user: AbstractBaseUser, games: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """The games (of ``games``, default all) ``user`` may change and rate deals into: every one for federation staff,
    their own for anyone else (an organiser never sees another organiser's game, nor a game server's, in the
    admin)."""
    games = Game.objects.all() if games is None else games
    if user.has_perm(STAFF_PERMISSION):
        return games
    if not user.is_authenticated:
        return games.none()
    return games.filter(owner_id=user.pk)


def game_owned(*, game: Game, user: AbstractBaseUser) -> bool:
    return user.has_perm(STAFF_PERMISSION) or (user.is_authenticated and game.owner_id == user.pk)


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
    """Create the rating rows of newcomers before their first deal: from their starting rating, peak and league when
    the federation's list carried one over (``StartingRating``), else as a new player (a bot at its level's maximum).

    Done when a game is created, so that the deals, which lock these rows, never have to insert one.
    """
    have = set(PreferansRating.objects.filter(player_id__in=player_ids).values_list("player_id", flat=True))
    missing = [pid for pid in player_ids if pid not in have]
    if not missing:
        return
    settings = rating_settings()
    now = timezone.now()
    carried = {
        row.player_id: row
        for row in StartingRating.objects.filter(rating_list__engine=Engine.PREFERANS, player_id__in=missing)
    }
    fresh = []
    for player in Player.objects.filter(pk__in=missing).select_related("bot_level").order_by("pk"):
        cap = float(player.bot_level.max_rating) if player.is_bot and player.bot_level_id else None
        state = new_player(settings, bot_max=cap)
        if player.pk in carried:
            state = starting_state(carried[player.pk], bot_max=cap, settings=settings)
        fresh.append(
            PreferansRating(
                player=player, rating=state.rating, max_rating=state.max_rating, league=state.league, updated_at=now
            )
        )
    PreferansRating.objects.bulk_create(fresh, ignore_conflicts=True)
    versions.changed(PreferansRating)  # written in bulk: no model signal tells the pages


#: The fields of a rating row a deal changes.
RATING_FIELDS = ["rating", "max_rating", "league", "deals", "updated_at"]


def lock_states(player_ids: set[int]) -> dict[int, tuple[PreferansRating, PlayerState]]:
    """Lock the players' rating rows in player id order (two requests never deadlock), creating newcomers' rows
    first; each row with the engine's state of it. A player id with no player is left out."""

    def locked():
        return (
            PreferansRating.objects.select_for_update(of=("self",))
            .select_related("player__bot_level")
            .only(*RATING_FIELDS, "player__is_bot", "player__bot_level__max_rating")
            .filter(player_id__in=sorted(player_ids))
            .order_by("player_id")
        )

    rows = list(locked())
    if len(rows) < len(player_ids):
        ratings_ensure(player_ids=sorted(player_ids - {row.player_id for row in rows}))
        rows = list(locked())
    return {row.player_id: (row, rating_state(row, row.player)) for row in rows}


def rating_state(row: PreferansRating, player: Player) -> PlayerState:
    """The engine's state of a rating row: a bot's rating is capped at its level's maximum (``player`` with its
    ``bot_level`` read)."""
    cap = float(player.bot_level.max_rating) if player.is_bot and player.bot_level_id else None
    rating = row.rating if cap is None else min(row.rating, cap)
    return PlayerState(rating, max(row.max_rating, rating), row.league, cap)


def starting_state(row: StartingRating, *, bot_max: float | None, settings: PreferansSettings) -> PlayerState:
    """The state a carried-over player starts from, read as ``rate`` reads ``ratings``, ``max_ratings`` and
    ``leagues``: a bot's rating within its level's maximum, the peak at least the rating, Pro if the peak reached the
    threshold (``ratings.engines.preferans``, module decisions)."""
    rating = float(row.rating) if bot_max is None else min(float(row.rating), bot_max)
    peak = max(float(row.max_rating), rating) if row.max_rating is not None else rating
    return PlayerState(rating, peak, league_for(row.league or AMATEUR, peak, settings), bot_max)


@transaction.atomic
def game_finish(*, game: Game) -> Game:
    """A finished game takes no more deals; a game left early keeps the deals played (`rules/preferans.md`)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if not game.finished:
        game.finished = True
        game.save(update_fields=["finished"])
    return game
