"""Writes for DIRS, the Go club rating (rules/go.md, part 2): first ratings, club games, the take-back of a game.

Club games are rated one by one in the order entered: each service locks both players' rating rows
(``select_for_update``), calls the pure engine ``ratings.engines.dirs`` and stores the game with the ratings before
and after. A DIRS tournament rates its boards here too (``board=``), without the tournament's step cap. Refused
input raises ``DirsError`` naming the field; nothing is saved then.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import models, transaction
from django.utils.translation import gettext as _

from federation.models import Club, Player
from ratings.engines import dirs
from ratings.engines.common import EngineError, FieldError
from ratings.models import Engine, RatingList
from ratings.params import validate_params

from .models import MAX_RECORDED_STONES, DirsGame, DirsRating

#: The club rating's list row, so pages and exports address DIRS as they address every other rating list.
DEFAULT_LIST = {
    "slug": "dirs",
    "name": "ДИРС, клубный рейтинг го",
    "name_en": "DIRS, the Go club rating",
    "ordering": 10,
}


class DirsError(FieldError):
    """Refused input for the club rating: ``field`` names the form field (or is empty), ``message`` says why."""


def dirs_setup_defaults(**kwargs) -> None:
    """Idempotent: the DIRS rating list (call it from a post_migrate handler); staff edits of the row are kept.

    DIRS takes no parameters: its steps, its handicap table and its 95-point limit are the rules themselves.
    """
    RatingList.objects.get_or_create(
        slug=DEFAULT_LIST["slug"],
        defaults={
            "name": DEFAULT_LIST["name"],
            "name_en": DEFAULT_LIST["name_en"],
            "engine": Engine.DIRS,
            "params": validate_params(Engine.DIRS, {}),
            "ordering": DEFAULT_LIST["ordering"],
        },
    )


@transaction.atomic
def dirs_rank_parse(rank: str):
    """A declared rank as the engine reads it (``5k``, ``2d``), or ``DirsError`` on the rank saying why."""
    try:
        return dirs.parse_rank(rank)
    except EngineError as error:
        raise DirsError("rank", error.message) from error


def dirs_rating_set_initial(
    *, player: Player, rank: str, club: Club | None = None, user: AbstractBaseUser | None = None
) -> DirsRating:
    """A newcomer's first DIRS rating from the declared rank (`rules/go.md`, part 2, "Decision (newcomers)"); ``user``
    set it (``entered_by``: besides staff, the one organiser who may change it afterwards)."""
    parsed = dirs_rank_parse(rank)
    if DirsRating.objects.filter(player=player).exists():
        raise DirsError("player", _("%(name)s already has a DIRS rating.") % {"name": player.full_name})
    rating = dirs.rating_from_rank(parsed.number, parsed.kind)
    return DirsRating.objects.create(
        player=player,
        rating=rating,
        initial_rating=rating,
        declared_rank=parsed.short,
        club=club or player.club,
        entered_by=user if user is not None and user.is_authenticated else None,
    )


@transaction.atomic
def dirs_game_record(
    *,
    date: datetime.date,
    club: Club | None,
    white: Player,
    black: Player,
    handicap: int,
    komi: str,
    winner: str,
    user: AbstractBaseUser | None = None,
    board: models.Model | None = None,
) -> DirsGame:
    """Record a club game and rate it if it was played on the handicap DIRS prescribes (rated in entry order).

    ``board`` is the tournament board (``go.Board``) the game was played on, when a DIRS tournament rates its
    games in the club: its correction can then take the game back (``dirs_game_take_back``).
    """
    if white.pk == black.pk:
        raise DirsError("black", _("A player cannot play themselves."))
    ratings = {r.player_id: r for r in DirsRating.objects.select_for_update().filter(player__in=[white, black])}
    for player, field in ((white, "white"), (black, "black")):
        if player.pk not in ratings:
            raise DirsError(
                field,
                _("%(name)s has no DIRS rating yet: set it from the declared rank first.") % {"name": player.full_name},
            )
    if not 0 <= handicap <= MAX_RECORDED_STONES:
        raise DirsError("handicap", _("A game has 0 to %(n)s stones.") % {"n": MAX_RECORDED_STONES})
    w, b = ratings[white.pk], ratings[black.pk]
    try:
        outcome = dirs.rate_game(
            dirs.DirsPlayer(w.rating, w.acceleration),
            dirs.DirsPlayer(b.rating, b.acceleration),
            winner=winner,
            handicap=handicap,
            komi=komi,
        )
    except EngineError as error:
        raise DirsError(error.field, error.message) from error
    game = DirsGame(
        date=date,
        club=club,
        white=white,
        black=black,
        handicap=handicap,
        komi=komi,
        winner=winner,
        **game_outcome_fields(outcome, w, b),
        board=board,
        entered_by=user if user is not None and user.is_authenticated else None,
    )
    game.full_clean(exclude=["board", "entered_by"])
    game.save()
    if outcome.rated:
        for row, after in ((w, outcome.white_after), (b, outcome.black_after)):
            row.rating = after.rating
            row.acceleration = after.acceleration
            row.games += 1
            row.save(update_fields=["rating", "acceleration", "games", "updated_at"])
    return game


@transaction.atomic
def dirs_game_take_back(*, board: models.Model) -> None:
    """Undo the club game of a tournament board (if it has one): both players get back their rating and acceleration.

    Club games are rated in the order entered, so only the last game of both players can be taken back; a later
    club game of either was rated from the ratings this game gave.
    """
    game = DirsGame.objects.select_related("white", "black").filter(board_id=board.pk).first()
    if game is None:
        return
    players = [game.white_id, game.black_id]
    ratings = {r.player_id: r for r in DirsRating.objects.select_for_update().filter(player_id__in=players)}
    for player_id, player in ((game.white_id, game.white), (game.black_id, game.black)):
        last = (
            DirsGame.objects.filter(models.Q(white_id=player_id) | models.Q(black_id=player_id))
            .order_by("-id")
            .values_list("id", flat=True)
            .first()
        )
        if last != game.pk:
            raise DirsError(
                "board",
                _("%(name)s has played a club game since: this game's club rating cannot be taken back.")
                % {"name": player.full_name},
            )
    if game.rated:
        sides = (
            (game.white_id, game.white_before, game.white_acceleration_before),
            (game.black_id, game.black_before, game.black_acceleration_before),
        )
        for player_id, before, acceleration in sides:
            row = ratings[player_id]
            row.rating = before
            row.acceleration = acceleration
            row.games = max(row.games - 1, 0)
            row.save(update_fields=["rating", "acceleration", "games", "updated_at"])
    game.delete()


def game_outcome_fields(outcome, white, black) -> dict:
    """A DirsGame's rated flag, reason, explanation and both players' before/after, from the engine's outcome.

    ``white`` and ``black`` are the states before the game (anything with ``rating`` and ``acceleration``).
    """
    return {
        "rated": outcome.rated,
        "reason_en": outcome.check.reason.en,
        "reason_ru": outcome.check.reason.ru,
        "explanation_en": outcome.explanation.en,
        "explanation_ru": outcome.explanation.ru,
        "white_before": white.rating,
        "black_before": black.rating,
        "white_after": outcome.white_after.rating,
        "black_after": outcome.black_after.rating,
        "white_acceleration_before": white.acceleration,
        "black_acceleration_before": black.acceleration,
        "white_acceleration_after": outcome.white_after.acceleration,
        "black_acceleration_after": outcome.black_after.acceleration,
    }
