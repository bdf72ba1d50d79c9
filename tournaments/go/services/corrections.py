"""A result corrected in any round, at any time, and the later rounds recomputed (issue 27).

A later round was paired, and perhaps played, on the levels the corrected round gave. It stays as it was paired
and played (who played whom, the colours, the stones played: facts of the venue), and everything the levels decide
is computed again from the corrected result: each later board's levels before its round, every finished round's
standings (levels, streaks, tie-breaks), and, for a round not published yet (not played), the stones and komi of
its boards. Where a game was played (or is being played: a published board) on other stones or komi than the
corrected levels give, the director is told exactly which games, round by round and board by board, in the answer
to the correction, on each such round's page (with the rules its pairing breaks) and in the director's record. A
draft paired on the old levels says so: re-pairing it pairs on the new ones.

Clearing a result (back to "no result") stays possible in the last round only: a later round's standings need
every earlier result. In a DIRS tournament rated in the club rating, the board's club game is taken back (allowed
while it is the last club game of both players: ``ratings.dirs``) and the corrected game is rated again; later
games' club ratings are not recomputed (they were rated in the order played), which that rule already guards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from ratings.dirs.calculator import handicap_text
from ratings.dirs.services import DirsError, dirs_game_take_back
from ratings.engines import dirs
from tournaments import pairing

from ..models import Board, BoardResult, GoTournament, Round, RoundStatus
from ..selectors import draws_allowed, go_options, is_dirs, tournament_data, tournament_state
from .common import GoError, check_writable, lock_round, log, record_on_round
from .results import RESULT_LABELS, board_in, complete_round, rate_board_in_club, save_result
from .rounds import recheck_draft

#: The rule code of a game whose stones or komi differ from what the corrected levels give.
RULE_CORRECTED_HANDICAP = "corrected_handicap"


@dataclass
class Correction:
    """What a correction did: the board, and each later game that now differs from what was played (one text a
    game, in both languages), and the drafts paired on the old levels."""

    board: Board
    differences: list[dict] = field(default_factory=list)
    drafts: list[int] = field(default_factory=list)


@transaction.atomic
def go_result_correct(
    *,
    go_round: Round,
    board_number: int,
    result: str,
    user: AbstractBaseUser | None = None,
    version: int | None = None,
) -> Correction:
    """Correct (or, in the last round, clear with ``result=""``) a board's result; the later rounds follow (see the
    module). Locks the round's row, then the board's (its ``version`` checked if the form sent it), then the later
    rounds' rows in order."""
    check_writable(go_round.tournament_id, user)
    locked = lock_round(go_round)
    go = locked.tournament
    if not locked.is_published:
        raise GoError("board", _("Round %(n)s is not published yet.") % {"n": locked.number})
    if result not in BoardResult.values:
        raise GoError("result", _("Choose a result."))
    board = board_in(locked, board_number, version)
    if not board.result:
        raise GoError("board", _("Board %(b)s has no result yet: enter it instead.") % {"b": board.number})
    if result == board.result:
        raise GoError("result", _("Board %(b)s already has this result.") % {"b": board.number})
    if result == BoardResult.DRAW and not draws_allowed(go):
        raise GoError("result", _("This tournament does not allow draws."))
    later = list(Round.objects.select_for_update().filter(tournament=go, number__gt=locked.number).order_by("number"))
    if not result and later:
        raise GoError(
            "result",
            _(
                "Round %(n)s has been paired on this round's results: correct the result to another one (a later "
                "round's standings need every earlier result)."
            )
            % {"n": later[0].number},
        )
    old = board.result
    if is_dirs(go):
        try:
            dirs_game_take_back(board=board)
        except DirsError as error:
            raise GoError(error.field, error.message) from error
    save_result(board, result, user)
    if result and is_dirs(go) and go.rate_in_club:
        rate_board_in_club(board, user)
    players = f"{board.white.name} - {board.black.name}"
    labels_en, labels_ru = RESULT_LABELS["en"], RESULT_LABELS["ru"]
    text = {
        "en": f"board {board.number} ({players}): {labels_en.get(old, old)} → {labels_en.get(result, result)}",
        "ru": f"доска {board.number} ({players}): {labels_ru.get(old, old)} → {labels_ru.get(result, result)}",
    }
    record_on_round(locked, user, "correct" if result else "clear", text)
    locked.save(update_fields=["overrides"])
    if locked.boards.filter(result="").exists():
        locked.standings.all().delete()
        if locked.completed:
            locked.completed = False
            locked.save(update_fields=["completed"])
    else:
        complete_round(locked)
    correction = Correction(board)
    if later:
        recompute_later(go, later, correction, user)
    return correction


def table_handicap(go: GoTournament, white_level: int, black_level: int) -> tuple[int, str]:
    """The stones and komi the rules give two levels (a DIRS tournament: two running ratings), at most 9 stones."""
    if is_dirs(go):
        prescribed = dirs.prescribed_handicap(white_level, black_level)
        return (prescribed.stones, prescribed.komi) if prescribed.pairable else (dirs.MAX_STONES, dirs.KOMI_REVERSE)
    return pairing.playable_handicap(white_level - black_level, half_stone=go.tournament.half_stone)


def recompute_later(go: GoTournament, rounds: list[Round], correction: Correction, user) -> None:
    """The later rounds after a correction: levels, stones of the drafts, standings, and what now differs."""
    options = go_options(go)
    for go_round in rounds:
        data = tournament_data(go=go)
        state = tournament_state(data, go_round.number - 1, players_upto=go_round.number)
        draft = go_round.status == RoundStatus.DRAFT
        changed, differences = [], []
        for b in data.boards.get(go_round.pk, []):
            white_level, black_level = state.player(f"r{b.white_id}").level, state.player(f"r{b.black_id}").level
            stones, komi = table_handicap(go, white_level, black_level)
            if (b.white_level, b.black_level) != (white_level, black_level):
                b.white_level, b.black_level = white_level, black_level
                changed.append(b)
            if (b.handicap, b.komi_kind) == (stones, komi):
                continue
            if draft:  # not played yet: the stones follow the levels
                b.handicap, b.komi_kind, b.komi = stones, komi, Decimal(str(options.komi_points(komi)))
                if b not in changed:
                    changed.append(b)
                continue
            differences.append(_difference(go_round, b, stones, komi))
        Board.objects.bulk_update(changed, ["white_level", "black_level", "handicap", "komi_kind", "komi"])
        if draft:
            recheck_draft(go_round)
            correction.drafts.append(go_round.number)
            note = {
                "en": f"round {go_round.number} (a draft) was paired on the levels before the correction: its stones "
                "follow the corrected levels; re-pair it to pair on them",
                "ru": f"тур {go_round.number} (черновик) спарен по уровням до исправления: его форы следуют "
                "исправленным уровням; чтобы спарить по ним, спарьте тур заново",
            }
            log(go, user, "recompute", note, round_number=go_round.number)
            continue
        kept = [i for i in go_round.issues if i.get("source") != "correction"]
        go_round.issues = kept + [d["issue"] for d in differences]
        go_round.save(update_fields=["issues"])
        for d in differences:
            correction.differences.append(d)
            log(go, user, "recompute", d["text"], round_number=go_round.number)
        if go_round.completed:
            complete_round(go_round)


def _difference(go_round: Round, b: Board, stones: int, komi: str) -> dict:
    """A game played on other stones or komi than the corrected levels give: its record line and its issue."""
    played_en, played_ru = _handicap_words(b.handicap, b.komi_kind)
    now_en, now_ru = _handicap_words(stones, komi)
    reversed_colours = b.white_level < b.black_level
    players = f"{b.white.name} - {b.black.name}"
    keys = f"r{b.white_id} - r{b.black_id}"
    colours_en = "; the colours the other way round" if reversed_colours else ""
    colours_ru = "; цвета наоборот" if reversed_colours else ""
    levels = f"{b.white_level}, {b.black_level}"
    text = {
        "en": f"round {go_round.number}, board {b.number} ({players}): played on {played_en}; the corrected levels "
        f"({levels}) give {now_en}{colours_en}",
        "ru": f"тур {go_round.number}, доска {b.number} ({players}): сыграна на {played_ru}; исправленные уровни "
        f"({levels}) дают {now_ru}{colours_ru}",
    }
    issue = {
        "rule": RULE_CORRECTED_HANDICAP,
        "players": [f"r{b.white_id}", f"r{b.black_id}"],
        "en": f"board {b.number} ({keys}): played on {played_en}; the corrected levels ({levels}) give {now_en}"
        f"{colours_en}",
        "ru": f"доска {b.number} ({keys}): сыграна на {played_ru}; исправленные уровни ({levels}) дают {now_ru}"
        f"{colours_ru}",
        "source": "correction",
    }
    return {"round": go_round.number, "board": b.number, "text": text, "issue": issue}


def _handicap_words(stones: int, komi: str) -> tuple[str, str]:
    """The handicap in words in both languages (``handicap_text`` speaks the active one)."""
    words = {}
    for language in ("en", "ru"):
        with translation.override(language):
            words[language] = str(handicap_text(stones, komi))
    return words["en"], words["ru"]
