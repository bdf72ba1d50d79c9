"""Writes for a round's pairing: pair it with the engine, change the draft by hand, publish, unpublish, delete.

The engine pairs (`rules/go.md`, "Pairing"); the director may then change the draft by hand (unpair a board, pair
two players, swap two players, give or take a bye). Every hand change is recorded with the round (``overrides``,
shown with its pairing) and in the director's record (``DirectorLog``, who and when, kept when the round is paired
again or deleted); the rules the changed pairing breaks are checked again and shown (``issues``), and the boards
are numbered again the way the pairing numbers them, so the top pair always sits on board 1.

Decision (a hand pairing above 9 stones): the rules let only the director pair against a rule, by hand, and have
the override recorded and shown, so such a pairing is accepted, not refused: the game is played on 9 stones (the
largest handicap the rules allow, ``pairing.playable_handicap``; in a DIRS tournament 9 stones and reverse komi,
and DIRS rates no such game), the broken rule is listed with the pairing, and its result completes the round like
any other. A swap that lands two players too far apart gets the same board.
"""

from __future__ import annotations

import random
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.engines.common import EngineError
from tournaments import pairing
from tournaments.pairing.names import alphabetical

from .. import dirs_mode
from ..models import Board, Bye, GoTournament, Registration, Round, RoundStatus
from ..selectors import TournamentData, is_dirs, tournament_data, tournament_state
from .common import GoError, check_writable, lock_draft, lock_round, log, record_on_round, registration_pk
from .results import complete_round


@transaction.atomic
def go_round_pair(*, go: GoTournament, user: AbstractBaseUser | None = None) -> Round:
    """Pair the next round with the engine (`rules/go.md`, "Pairing"): a draft with the rules it had to break."""
    check_writable(go, user)
    go = GoTournament.objects.select_for_update().select_related("tournament").get(pk=go.pk)
    rounds = list(go.rounds.order_by("number"))
    if rounds and not rounds[-1].is_published:
        raise GoError(
            "", _("Round %(n)s is paired but not published: re-pair or publish it.") % {"n": rounds[-1].number}
        )
    if rounds and not rounds[-1].completed:
        raise GoError("", _("Round %(n)s still has games without a result.") % {"n": rounds[-1].number})
    number = len(rounds) + 1
    if number > (go.tournament.rounds or 1):
        raise GoError("", _("All %(n)s rounds have been played.") % {"n": go.tournament.rounds})
    seed = random.SystemRandom().randrange(2**31)
    go_round = Round(tournament=go, number=number, seed=seed, paired_at=timezone.now())
    go_round.save()
    _pair_into(go, go_round)
    text = {"en": f"round {number} paired", "ru": f"жеребьёвка тура {number}"}
    log(go, user, "pair_round", text, round_number=number)
    return go_round


@transaction.atomic
def go_round_repair(*, go_round: Round, user: AbstractBaseUser | None = None) -> Round:
    """Throw the draft's boards away and pair it again with the same seed (so the same field gives the same pairs)."""
    check_writable(go_round.tournament_id, user)
    draft = lock_draft(go_round)
    discarded = len(draft.overrides)
    draft.boards.all().delete()
    draft.byes.all().delete()
    draft.paired_at = timezone.now()
    draft.save(update_fields=["paired_at"])
    _pair_into(draft.tournament, draft)
    text = {
        "en": f"round {draft.number} paired again ({discarded} change(s) by hand discarded, kept in this record)",
        "ru": f"тур {draft.number} спарен заново (изменений вручную отброшено: {discarded}, они остаются в журнале)",
    }
    log(draft.tournament, user, "repair", text, round_number=draft.number)
    return draft


@transaction.atomic
def go_round_unpair(*, go_round: Round, board_number: int, user: AbstractBaseUser | None = None) -> Round:
    """Remove a board from the draft; its two players are left unpaired until paired again by hand."""
    check_writable(go_round.tournament_id, user)
    draft = lock_draft(go_round)
    board = draft.boards.select_related("white", "black").filter(number=board_number).first()
    if board is None:
        raise GoError("board", _("Board %(b)s is not in round %(n)s.") % {"b": board_number, "n": draft.number})
    text = {
        "en": f"board {board.number} unpaired: {board.white.name} - {board.black.name}",
        "ru": f"доска {board.number} расформирована: {board.white.name} - {board.black.name}",
    }
    board.delete()
    _after_hand_change(draft, user, "unpair", text)
    return draft


@transaction.atomic
def go_round_pair_by_hand(
    *, go_round: Round, first_id: int | str, second_id: int | str, user: AbstractBaseUser | None = None
) -> Round:
    """Add a board for two unpaired players; colours, stones and komi as the rules give them for their levels.

    Both must play this round (joined, present, not withdrawn). Two players more than 9 stones apart are paired
    on 9 stones, the rule they break shown with the pairing (the module's Decision).
    """
    check_writable(go_round.tournament_id, user)
    draft = lock_draft(go_round)
    go = draft.tournament
    a = _registration_in(go, first_id, "first")
    b = _registration_in(go, second_id, "second")
    if a.pk == b.pk:
        raise GoError("second", _("A player cannot play themselves."))
    for reg, field in ((a, "first"), (b, "second")):
        problem = _occupied(draft, reg)
        if problem:
            raise GoError(field, problem)
        _check_plays(draft, reg, field)
    data, state = _edit_context(draft)
    number = (draft.boards.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    _save_boards(draft, [_board_for(go, state, a.key, b.key, seed=draft.seed, number=number)], [])
    _renumber(draft, state)
    number = Board.objects.get(round=draft, white__in=[a, b], black__in=[a, b]).number
    text = {
        "en": f"paired by hand on board {number}: {a.name} - {b.name}",
        "ru": f"пара вручную на доске {number}: {a.name} - {b.name}",
    }
    _after_hand_change(draft, user, "pair", text, context=(data, state))
    return draft


@transaction.atomic
def go_round_swap(
    *, go_round: Round, first_id: int | str, second_id: int | str, user: AbstractBaseUser | None = None
) -> Round:
    """Exchange two players' places in the draft (boards or byes); the boards they land on are recomputed."""
    check_writable(go_round.tournament_id, user)
    draft = lock_draft(go_round)
    go = draft.tournament
    a = _registration_in(go, first_id, "first")
    b = _registration_in(go, second_id, "second")
    if a.pk == b.pk:
        raise GoError("second", _("Choose two different players."))
    boards = list(draft.boards.order_by("number"))
    bye_ids = set(draft.byes.values_list("registration_id", flat=True))
    pairs = {bd.number: [bd.white_id, bd.black_id] for bd in boards}

    def where(reg: Registration) -> tuple[str, int | None]:
        for number, ids in pairs.items():
            if reg.pk in ids:
                return "board", number
        return ("bye", None) if reg.pk in bye_ids else ("none", None)

    wa, wb = where(a), where(b)
    if wa == wb and wa[0] != "board":
        raise GoError("second", _("Neither player is on a board: pair them by hand instead."))
    if wa[0] == "board" and wa == wb:
        raise GoError("second", _("The two players already play each other."))
    for reg, field in ((a, "first"), (b, "second")):
        _check_plays(draft, reg, field)
    for (kind, number), old, new in ((wa, a.pk, b.pk), (wb, b.pk, a.pk)):
        if kind == "board":
            ids = pairs[number]
            ids[ids.index(old)] = new
        elif kind == "bye":
            bye_ids.discard(old)
            bye_ids.add(new)
    data, state = _edit_context(draft)
    draft.boards.all().delete()
    draft.byes.all().delete()
    new_boards = [
        _board_for(go, state, f"r{ids[0]}", f"r{ids[1]}", seed=draft.seed, number=number)
        for number, ids in sorted(pairs.items())
    ]
    _save_boards(draft, new_boards, [f"r{i}" for i in sorted(bye_ids)])
    text = {"en": f"swapped {a.name} and {b.name}", "ru": f"обмен местами: {a.name} и {b.name}"}
    _after_hand_change(draft, user, "swap", text, context=(data, state))
    return draft


@transaction.atomic
def go_round_bye(
    *, go_round: Round, registration_id: int | str, give: bool = True, user: AbstractBaseUser | None = None
) -> Round:
    """Give an unpaired player a bye in the draft (refused for a player who is paired), or take a bye back."""
    check_writable(go_round.tournament_id, user)
    draft = lock_draft(go_round)
    reg = _registration_in(draft.tournament, registration_id, "player")
    if give:
        problem = _occupied(draft, reg)
        if problem:
            raise GoError("player", problem)
        _check_plays(draft, reg, "player")
        Bye.objects.create(round=draft, registration=reg)
        text = {"en": f"bye given to {reg.name}", "ru": f"бай: {reg.name}"}
    else:
        if not draft.byes.filter(registration=reg).delete()[0]:
            raise GoError("player", _("%(name)s has no bye in this round.") % {"name": reg.name})
        text = {"en": f"bye taken from {reg.name}", "ru": f"бай снят: {reg.name}"}
    _after_hand_change(draft, user, "bye", text)
    return draft


@transaction.atomic
def go_round_publish(*, go_round: Round, user: AbstractBaseUser | None = None) -> Round:
    check_writable(go_round.tournament_id, user)
    draft = lock_draft(go_round)
    if not draft.boards.exists() and not draft.byes.exists():
        raise GoError("", _("Round %(n)s has no boards.") % {"n": draft.number})
    draft.status = RoundStatus.PUBLISHED
    draft.published_at = timezone.now()
    draft.save(update_fields=["status", "published_at"])
    text = {"en": f"round {draft.number} published", "ru": f"тур {draft.number} опубликован"}
    log(draft.tournament, user, "publish", text, round_number=draft.number)
    if not draft.boards.exists():
        complete_round(draft)
    return draft


@transaction.atomic
def go_round_unpublish(*, go_round: Round, user: AbstractBaseUser | None = None) -> Round:
    """Back to draft, allowed until the round's first result is in."""
    check_writable(go_round.tournament_id, user)
    locked = lock_round(go_round)
    if not locked.is_published:
        raise GoError("", _("Round %(n)s is not published.") % {"n": locked.number})
    if locked.boards.exclude(result="").exists():
        raise GoError("", _("Round %(n)s already has results: it cannot be unpublished.") % {"n": locked.number})
    if locked.tournament.rounds.filter(number__gt=locked.number).exists():
        raise GoError("", _("A later round has been paired."))
    locked.status = RoundStatus.DRAFT
    locked.published_at = None
    locked.completed = False
    locked.save(update_fields=["status", "published_at", "completed"])
    locked.standings.all().delete()
    text = {"en": f"round {locked.number} unpublished", "ru": f"публикация тура {locked.number} снята"}
    log(locked.tournament, user, "unpublish", text, round_number=locked.number)
    return locked


@transaction.atomic
def go_round_delete(*, go_round: Round, user: AbstractBaseUser | None = None) -> GoTournament:
    """Delete a draft round's pairing (boards, byes, the round), so an earlier result can be corrected."""
    check_writable(go_round.tournament_id, user)
    draft = lock_draft(go_round)
    go = draft.tournament
    if go.rounds.filter(number__gt=draft.number).exists():
        raise GoError("", _("A later round has been paired."))
    number, changes = draft.number, len(draft.overrides)
    draft.boards.all().delete()
    draft.byes.all().delete()
    draft.delete()
    text = {
        "en": f"pairing of round {number} deleted ({changes} change(s) by hand on it, kept in this record)",
        "ru": f"жеребьёвка тура {number} удалена (изменений вручную на ней: {changes}, они остаются в журнале)",
    }
    log(go, user, "delete", text, round_number=number)
    return go


# --- the engine, either system ----------------------------------------------------------------------------------


def _pair_into(go: GoTournament, go_round: Round) -> None:
    data = tournament_data(go=go)
    state = tournament_state(data, go_round.number - 1, players_upto=go_round.number)
    present = data.present(go_round.number)
    try:
        if is_dirs(go):
            result = dirs_mode.pair_round(state, seed=go_round.seed, present=present)
        else:
            result = pairing.pair_round(state, seed=go_round.seed, present=present)
    except EngineError as error:
        raise GoError("", str(error)) from error
    _save_boards(go_round, list(result.boards), list(result.byes))
    go_round.issues = [_issue_dict(i, "engine") for i in result.issues]
    go_round.overrides = []
    go_round.save(update_fields=["issues", "overrides"])


def _board_for(go: GoTournament, state: pairing.TournamentState, a: str, b: str, *, seed: int, number: int):
    if is_dirs(go):
        return dirs_mode.board(state, a, b, number=number, seed=seed)
    return pairing.board_for(state, a, b, seed=seed, number=number)


def _issue_dict(issue: pairing.PairingIssue, source: str) -> dict:
    return {
        "rule": issue.rule,
        "players": list(issue.players),
        "en": issue.explanation.en,
        "ru": issue.explanation.ru,
        "source": source,
    }


def _save_boards(go_round: Round, boards: list[pairing.PairedBoard], byes: list[str]) -> None:
    Board.objects.bulk_create(
        [
            Board(
                round=go_round,
                number=b.number,
                white_id=registration_pk(b.white),
                black_id=registration_pk(b.black),
                white_level=b.white_level,
                black_level=b.black_level,
                handicap=b.handicap,
                komi_kind=b.komi_kind,
                komi=Decimal(str(b.komi)),
            )
            for b in boards
        ]
    )
    Bye.objects.bulk_create([Bye(round=go_round, registration_id=registration_pk(p)) for p in byes])


# --- changes by hand --------------------------------------------------------------------------------------------


def _edit_context(go_round: Round) -> tuple[TournamentData, pairing.TournamentState]:
    data = tournament_data(go=go_round.tournament)
    return data, tournament_state(data, go_round.number - 1, players_upto=go_round.number)


def _after_hand_change(
    draft: Round,
    user: AbstractBaseUser | None,
    action: str,
    text: dict,
    *,
    context: tuple[TournamentData, pairing.TournamentState] | None = None,
) -> None:
    """Number the boards again, check the rules again and record the change with the round."""
    data, state = context or _edit_context(draft)
    _renumber(draft, state)
    _recheck(draft, data, state)
    record_on_round(draft, user, action, text)
    draft.save(update_fields=["issues", "overrides"])


def _rank_key(player: pairing.PlayerState) -> tuple[int, float, str, str]:
    """`rules/go.md`, "Pairing": players are ranked by level, then start rating, then name (and id, to be total)."""
    return -player.level, -player.rating, alphabetical(player.name), player.id


def _renumber(draft: Round, state: pairing.TournamentState) -> None:
    """Number the boards as the pairing does: board 1 holds the highest-ranked player, and so on down the field.

    The pairing walks down from the favourites and numbers each pair as it makes it, so a board's place is the rank
    of its higher-ranked player (a DIRS tournament ranks on the levels it pairs on, ``dirs_mode.pairing_state``).
    Numbers are unique in a round, so the boards are first moved past the highest number, then set.
    """
    ranking = dirs_mode.pairing_state(state) if is_dirs(draft.tournament) else state
    position = {p.id: i for i, p in enumerate(sorted(ranking.players, key=_rank_key))}
    boards = list(Board.objects.filter(round=draft).only("id", "number", "white_id", "black_id"))
    ordered = sorted(boards, key=lambda b: min(position[f"r{b.white_id}"], position[f"r{b.black_id}"]))
    if [b.number for b in ordered] == list(range(1, len(ordered) + 1)):
        return
    Board.objects.filter(round=draft).update(number=F("number") + max(b.number for b in boards))
    for number, board in enumerate(ordered, start=1):
        board.number = number
    Board.objects.bulk_update(ordered, ["number"])


def recheck_draft(draft: Round) -> None:
    """The rules a draft breaks, checked again (a correction of an earlier round changed the levels it was paired
    on, ``corrections``)."""
    data, state = _edit_context(draft)
    _recheck(draft, data, state)
    draft.save(update_fields=["issues"])


def _recheck(draft: Round, data: TournamentData, state: pairing.TournamentState) -> None:
    """Store the rules the current (hand-changed) pairing breaks, plus the engine's note on an unpairable field.

    The engine's note (more byes than an odd field needs, because no legal pairing exists) stays only while the
    draft still gives more byes than that: once the director has paired those players by hand, it is no longer
    true, and the rules the hand pairing breaks are listed instead.
    """
    boards = list(Board.objects.filter(round=draft).order_by("number"))
    byes = [f"r{b}" for b in Bye.objects.filter(round=draft).values_list("registration_id", flat=True)]
    present = data.present(draft.number)
    if is_dirs(data.go):
        pairs = [(f"r{b.white_id}", f"r{b.black_id}") for b in boards]
        issues = dirs_mode.check_pairing(state, pairs, byes, present=present)
    else:
        engine_boards = [
            pairing.PairedBoard(
                b.number,
                f"r{b.white_id}",
                f"r{b.black_id}",
                b.white_level,
                b.black_level,
                b.handicap,
                b.komi_kind,
                float(b.komi),
            )
            for b in boards
        ]
        issues = pairing.check_pairing(state, engine_boards, byes, present=present)
    surplus = len(byes) > len(present) % 2
    kept = [
        i for i in draft.issues if i["source"] == "engine" and i["rule"] == pairing.RULE_FIELD_UNPAIRABLE and surplus
    ]
    draft.issues = kept + [_issue_dict(i, "hand") for i in issues]


def _registration_in(go: GoTournament, reg_id: int | str | None, field: str) -> Registration:
    try:
        return Registration.objects.get(tournament=go, pk=int(reg_id))
    except (TypeError, ValueError, Registration.DoesNotExist) as error:
        raise GoError(field, _("Choose a player of this tournament.")) from error


def _check_plays(draft: Round, reg: Registration, field: str) -> None:
    """Refused: a player who has not joined yet, has withdrawn, or is marked absent in this round (not paired)."""
    if reg.first_round > draft.number:
        raise GoError(field, _("%(name)s joins from round %(n)s.") % {"name": reg.name, "n": reg.first_round})
    if reg.withdrawn_after is not None and draft.number > reg.withdrawn_after:
        raise GoError(field, _("%(name)s withdrew after round %(n)s.") % {"name": reg.name, "n": reg.withdrawn_after})
    if reg.absences.filter(round_number=draft.number).exists():
        raise GoError(
            field,
            _("%(name)s is marked absent in round %(n)s: mark them present first.")
            % {"name": reg.name, "n": draft.number},
        )


def _occupied(draft: Round, reg: Registration) -> str | None:
    board = draft.boards.filter(white=reg).first() or draft.boards.filter(black=reg).first()
    if board is not None:
        return _("%(name)s already plays on board %(b)s.") % {"name": reg.name, "b": board.number}
    if draft.byes.filter(registration=reg).exists():
        return _("%(name)s already has a bye in this round.") % {"name": reg.name}
    return None
