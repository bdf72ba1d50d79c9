"""Writes for a published round's results: entering them and completing the round (corrections: ``corrections``).

A round is complete when every board has a result: the tournament is replayed up to it and everyone's line of the
standings is stored (``StandingRow``). In a DIRS tournament rated in the club rating, each result is also a club
game (``ratings.dirs``), without the tournament's step cap (`rules/go.md`, part 2, "DIRS in tournaments").
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.dirs.services import DirsError, dirs_game_record
from ratings.engines.common import EngineError
from tournaments import pairing

from ..models import Board, BoardResult, Round, StandingRow
from ..selectors import draws_allowed, is_dirs, tournament_data, tournament_state
from .common import GoError, check_writable, lock_round, registration_pk

#: A board's result in each language, for the round's record of changes by hand.
RESULT_LABELS = {
    "en": {
        "": "no result",
        "white": "white wins",
        "black": "black wins",
        "draw": "draw",
        "white_forfeit": "white wins by forfeit",
        "black_forfeit": "black wins by forfeit",
        "both_lose": "both lose",
        "both_win": "both win",
        "double_forfeit": "both lose by forfeit",
    },
    "ru": {
        "": "нет результата",
        "white": "победа белых",
        "black": "победа чёрных",
        "draw": "ничья",
        "white_forfeit": "победа белых без игры",
        "black_forfeit": "победа чёрных без игры",
        "both_lose": "поражение обоих",
        "both_win": "победа обоих",
        "double_forfeit": "поражение обоих без игры",
    },
}


def board_in(go_round: Round, board_number: int, version: int | None) -> Board:
    """The round's board, locked, checked against the version the form was shown."""
    board = go_round.boards.select_for_update().select_related("white", "black").filter(number=board_number).first()
    if board is None:
        raise GoError("board", _("Board %(b)s is not in round %(n)s.") % {"b": board_number, "n": go_round.number})
    if version is not None and version != board.version:
        raise GoError("board", _("Board %(b)s was changed meanwhile: reload the page.") % {"b": board.number})
    return board


def save_result(board: Board, result: str, user: AbstractBaseUser | None) -> None:
    board.result = result
    board.entered_by = user if user is not None and user.is_authenticated else None
    board.entered_at = timezone.now() if result else None
    board.version += 1
    board.save(update_fields=["result", "entered_by", "entered_at", "version"])


@transaction.atomic
def go_result_enter(
    *,
    go_round: Round,
    board_number: int,
    result: str,
    user: AbstractBaseUser | None = None,
    version: int | None = None,
) -> Board:
    """One board's result. The round row is locked, so results entered at once for one round are serialised.

    Refused: a board not in the round, a board that already has a result, a draw where draws are forbidden (and
    in a DIRS tournament), an unknown result, a round not published yet.
    """
    check_writable(go_round.tournament_id, user)
    locked = lock_round(go_round)
    go = locked.tournament
    if not locked.is_published:
        raise GoError("board", _("Round %(n)s is not published yet.") % {"n": locked.number})
    if result not in [v for v in BoardResult.values if v]:
        raise GoError("result", _("Choose a result."))
    board = locked.boards.select_for_update().filter(number=board_number).first()
    if board is None:
        raise GoError("board", _("Board %(b)s is not in round %(n)s.") % {"b": board_number, "n": locked.number})
    if board.result:
        raise GoError(
            "board",
            _("Board %(b)s already has a result (%(r)s).") % {"b": board.number, "r": board.get_result_display()},
        )
    if version is not None and version != board.version:
        raise GoError("board", _("Board %(b)s was changed meanwhile: reload the page.") % {"b": board.number})
    if result == BoardResult.DRAW and not draws_allowed(go):
        raise GoError("result", _("This tournament does not allow draws."))
    save_result(board, result, user)
    if is_dirs(go) and go.rate_in_club:
        rate_board_in_club(board, user)
    if not locked.boards.filter(result="").exists():
        complete_round(locked)
    return board


def complete_round(go_round: Round) -> None:
    """All results in: replay up to this round and store everyone's line of the standings."""
    data = tournament_data(go=go_round.tournament)
    try:
        state = tournament_state(data, go_round.number)
    except EngineError as error:
        raise GoError(
            "", _("Round %(n)s cannot be completed: %(why)s") % {"n": go_round.number, "why": error}
        ) from error
    rows = pairing.standings(state)
    streaks = {p.id: p.streak for p in state.players}
    go_round.standings.all().delete()
    StandingRow.objects.bulk_create(
        [
            StandingRow(
                round=go_round,
                registration_id=registration_pk(s.player),
                place=s.place,
                shared=s.shared,
                start_level=s.start_level,
                level=s.level,
                tiebreak=s.tiebreak,
                streak=streaks[s.player],
                explanation_en=s.explanation.en,
                explanation_ru=s.explanation.ru,
            )
            for s in rows
        ]
    )
    go_round.completed = True
    go_round.save(update_fields=["completed"])


def rate_board_in_club(board: Board, user: AbstractBaseUser | None) -> None:
    """A DIRS tournament game also counts in the club rating, without the step cap (`rules/go.md`, part 2).

    Only a game played with one winner is a club game: a forfeit was not played (part 3: a game not played), and
    a special result (both win, both lose, a double forfeit) has no single winner for DIRS to rate (``dirs_mode``).
    """
    white, black = board.white, board.black
    if white.player_id is None or black.player_id is None or board.unplayed:
        return
    winner = board.winner_colour
    if winner is None:
        return
    go = board.round.tournament
    try:
        dirs_game_record(
            date=go.tournament.start_date,
            club=go.club,
            white=white.player,
            black=black.player,
            handicap=board.handicap,
            komi=board.komi_kind,
            winner=winner,
            user=user,
            board=board,
        )
    except DirsError as error:
        raise GoError(error.field, error.message) from error
