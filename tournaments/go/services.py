"""Writes for Go: tournaments, registrations, rounds (pair, edit by hand, publish), results, DIRS club games.

Every service turns rows into the engines' plain data (``selectors.tournament_data``), calls the engine
(``tournaments.pairing``, ``ratings.engines.dirs``, ``dirs_mode``) and stores what comes back. Bad input raises
``GoError`` with the reason (and the field it concerns); nothing is saved then. Writes to a round lock its row
(``select_for_update``), so two people entering results for the same round at once are serialised and lose nothing.
"""

from __future__ import annotations

import datetime
import logging
import random
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import Club, Player
from ratings.engines import dirs
from ratings.engines.common import EngineError
from tournaments import pairing
from tournaments.models import Discipline, GoSystem, Tournament

from . import dirs_mode
from .models import (
    DIRS_RATING_MAX,
    TOURNAMENT_RATING_MAX,
    Absence,
    Board,
    BoardResult,
    Bye,
    DirsGame,
    DirsRating,
    GoTournament,
    RatingSource,
    Registration,
    Round,
    RoundStatus,
    StandingRow,
)
from .selectors import TournamentData, go_options, tournament_data

logger = logging.getLogger(__name__)


class GoError(Exception):
    """Refused input: ``message`` says why (in the user's language), ``field`` names the form field if any."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


# --- tournaments and registrations ------------------------------------------------------------------------------


@transaction.atomic
def go_tournament_create(
    *,
    user: AbstractBaseUser,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date,
    city: str = "",
    country: str = "RU",
    system: str,
    rounds: int,
    half_stone: bool,
    acceleration: bool,
    draws_allowed: bool = False,
    tiebreak: bool = True,
    komi_normal: Decimal = Decimal("6.5"),
    komi_none: Decimal = Decimal("0.5"),
    komi_reverse: Decimal = Decimal("6.5"),
    rate_in_club: bool = True,
    club: Club | None = None,
    time_minutes: int = 60,
) -> GoTournament:
    if system not in GoSystem.values:
        raise GoError(_("Unknown system."), "system")
    if not 1 <= rounds <= 30:
        raise GoError(_("A tournament has 1 to 30 rounds."), "rounds")
    if system == GoSystem.DIRS and draws_allowed:
        raise GoError(_("DIRS knows no draws: a DIRS tournament cannot allow them."), "draws_allowed")
    tournament = Tournament(
        discipline=Discipline.GO,
        name=name,
        start_date=start_date,
        end_date=end_date,
        city=city,
        country=country,
        organiser=user,
        go_system=system,
        rounds=rounds,
        half_stone=half_stone,
        acceleration=acceleration,
        draws_allowed=draws_allowed,
    )
    tournament.full_clean()
    tournament.save()
    go = GoTournament(
        tournament=tournament,
        tiebreak=tiebreak,
        komi_normal=komi_normal,
        komi_none=komi_none,
        komi_reverse=komi_reverse,
        rate_in_club=rate_in_club,
        club=club,
        time_minutes=time_minutes,
    )
    go.full_clean()
    go.save()
    return go


def _is_dirs(go: GoTournament) -> bool:
    return go.tournament.go_system == GoSystem.DIRS


def _rating_scale(go: GoTournament) -> int:
    return DIRS_RATING_MAX if _is_dirs(go) else TOURNAMENT_RATING_MAX


def _next_open_round(go: GoTournament) -> int:
    """The first round a newcomer can still play: after the last published round."""
    last = go.rounds.filter(status=RoundStatus.PUBLISHED).order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@transaction.atomic
def go_registration_add(
    *,
    go: GoTournament,
    player: Player | None = None,
    name: str = "",
    rating: int | None = None,
    country: str = "",
    club_name: str = "",
) -> Registration:
    """Register a member (rating from DIRS unless typed) or a typed name with a typed rating.

    `rules/go.md`: a late registration enters with its start points: ``first_round`` is the first round not yet
    published, and the rounds before it count as absences.
    """
    go = GoTournament.objects.select_for_update().select_related("tournament").get(pk=go.pk)
    source = RatingSource.TYPED
    if player is not None:
        if Registration.objects.filter(tournament=go, player=player).exists():
            raise GoError(_("%(name)s is already registered.") % {"name": player.full_name}, "player")
        if rating is None:
            dirs_rating = DirsRating.objects.filter(player=player).first()
            if dirs_rating is None:
                raise GoError(_("%(name)s has no DIRS rating: type a rating.") % {"name": player.full_name}, "rating")
            rating = dirs_rating.rating if _is_dirs(go) else dirs_rating.rating * 10
            source = RatingSource.DIRS
        name = player.full_name
        name_latin = player.full_name_latin
        country = country or player.country
        club_name = club_name or (player.club.name if player.club_id else "")
    else:
        name = " ".join(name.split())
        name_latin = name if name.isascii() else ""
        if not name:
            raise GoError(_("Choose a player or type a name."), "name")
        if Registration.objects.filter(tournament=go, name__iexact=name).exists():
            raise GoError(_("%(name)s is already registered.") % {"name": name}, "name")
        if rating is None:
            raise GoError(_("Type the rating of a player who is not a member."), "rating")
    top = _rating_scale(go)
    if not 0 <= rating <= top:
        scale = _("DIRS scale") if _is_dirs(go) else _("tournament scale")
        raise GoError(
            _("Rating %(rating)s is outside the %(scale)s (0..%(top)s).")
            % {"rating": rating, "scale": scale, "top": top},
            "rating",
        )
    first_round = _next_open_round(go)
    if first_round > (go.tournament.rounds or 1):
        raise GoError(_("Every round has been published: nobody can join any more."))
    registration = Registration(
        tournament=go,
        player=player,
        name=name,
        name_latin=name_latin,
        rating=rating,
        rating_source=source,
        country=(country or "RU").upper()[:2],
        club_name=club_name,
        first_round=first_round,
    )
    registration.full_clean(exclude=["tournament"])
    try:
        with transaction.atomic():
            registration.save()
    except IntegrityError as error:
        raise GoError(_("%(name)s is already registered.") % {"name": name}) from error
    return registration


def _paired_in(registration: Registration, round_number: int) -> bool:
    rnd = Round.objects.filter(tournament_id=registration.tournament_id, number=round_number).first()
    if rnd is None:
        return False
    return (
        rnd.boards.filter(white=registration).exists()
        or rnd.boards.filter(black=registration).exists()
        or rnd.byes.filter(registration=registration).exists()
    )


@transaction.atomic
def go_absence_set(*, registration: Registration, round_number: int, absent: bool) -> None:
    """Mark a player absent (or present again) in a round not yet played; a paired player must be unpaired first."""
    go = GoTournament.objects.select_for_update().select_related("tournament").get(pk=registration.tournament_id)
    if not 1 <= round_number <= (go.tournament.rounds or 1):
        raise GoError(_("There is no round %(n)s.") % {"n": round_number}, "round_number")
    rnd = go.rounds.filter(number=round_number).first()
    if rnd is not None and rnd.is_published:
        raise GoError(_("Round %(n)s is published: unpublish it first.") % {"n": round_number}, "round_number")
    if absent:
        if _paired_in(registration, round_number):
            raise GoError(
                _("%(name)s is paired in round %(n)s: unpair them first.")
                % {"name": registration.name, "n": round_number},
                "round_number",
            )
        Absence.objects.get_or_create(registration=registration, round_number=round_number)
    else:
        Absence.objects.filter(registration=registration, round_number=round_number).delete()


@transaction.atomic
def go_registration_withdraw(*, registration: Registration, undo: bool = False) -> Registration:
    """Withdraw a player from the rounds not yet published (or take them back)."""
    go = GoTournament.objects.select_for_update().get(pk=registration.tournament_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if undo:
        registration.withdrawn_after = None
    else:
        last = _next_open_round(go) - 1
        draft = go.rounds.filter(status=RoundStatus.DRAFT).first()
        if draft is not None and _paired_in(registration, draft.number):
            raise GoError(
                _("%(name)s is paired in round %(n)s: unpair them first.")
                % {"name": registration.name, "n": draft.number}
            )
        registration.withdrawn_after = last
    registration.save(update_fields=["withdrawn_after"])
    return registration


# --- the engine, either system ----------------------------------------------------------------------------------


def tournament_state(data: TournamentData, upto: int, *, players_upto: int | None = None) -> pairing.TournamentState:
    """The engine's state after rounds 1..upto, with the players registered by round ``players_upto`` (or upto)."""
    options = go_options(data.go)
    entrants = data.entrants(players_upto or upto)
    games = data.games(upto)
    if _is_dirs(data.go):
        return dirs_mode.replay(options, entrants, games)
    return pairing.replay(options, entrants, games)


def _board_for(go: GoTournament, state: pairing.TournamentState, a: str, b: str, *, seed: int, number: int):
    if _is_dirs(go):
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


def _reg_id(key: str) -> int:
    return int(key[1:])


def _save_boards(rnd: Round, boards: list[pairing.PairedBoard], byes: list[str]) -> None:
    Board.objects.bulk_create(
        [
            Board(
                round=rnd,
                number=b.number,
                white_id=_reg_id(b.white),
                black_id=_reg_id(b.black),
                white_level=b.white_level,
                black_level=b.black_level,
                handicap=b.handicap,
                komi_kind=b.komi_kind,
                komi=Decimal(str(b.komi)),
            )
            for b in boards
        ]
    )
    Bye.objects.bulk_create([Bye(round=rnd, registration_id=_reg_id(p)) for p in byes])


def _lock_round(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament__tournament").get(pk=rnd.pk)


@transaction.atomic
def go_round_pair(*, go: GoTournament, user: AbstractBaseUser | None = None) -> Round:
    """Pair the next round with the engine (`rules/go.md`, "Pairing"): a draft with the rules it had to break."""
    go = GoTournament.objects.select_for_update().select_related("tournament").get(pk=go.pk)
    rounds = list(go.rounds.order_by("number"))
    if rounds and not rounds[-1].is_published:
        raise GoError(_("Round %(n)s is paired but not published: re-pair or publish it.") % {"n": rounds[-1].number})
    if rounds and not rounds[-1].completed:
        raise GoError(_("Round %(n)s still has games without a result.") % {"n": rounds[-1].number})
    number = len(rounds) + 1
    if number > (go.tournament.rounds or 1):
        raise GoError(_("All %(n)s rounds have been played.") % {"n": go.tournament.rounds})
    seed = random.SystemRandom().randrange(2**31)
    rnd = Round(tournament=go, number=number, seed=seed, paired_at=timezone.now())
    rnd.save()
    _pair_into(go, rnd)
    return rnd


def _pair_into(go: GoTournament, rnd: Round) -> None:
    data = tournament_data(go=go)
    state = tournament_state(data, rnd.number - 1, players_upto=rnd.number)
    present = data.present(rnd.number)
    try:
        if _is_dirs(go):
            result = dirs_mode.pair_round(state, seed=rnd.seed, present=present)
        else:
            result = pairing.pair_round(state, seed=rnd.seed, present=present)
    except EngineError as error:
        raise GoError(str(error)) from error
    _save_boards(rnd, list(result.boards), list(result.byes))
    rnd.issues = [_issue_dict(i, "engine") for i in result.issues]
    rnd.overrides = []
    rnd.save(update_fields=["issues", "overrides"])


def _override(user: AbstractBaseUser | None, action: str, text: dict) -> dict:
    return {
        "at": timezone.now().isoformat(timespec="seconds"),
        "by": getattr(user, "username", "") or "",
        "action": action,
        "en": text["en"],
        "ru": text["ru"],
    }


def _draft(rnd: Round) -> Round:
    rnd = _lock_round(rnd)
    if rnd.is_published:
        raise GoError(_("Round %(n)s is published: unpublish it before changing the pairing.") % {"n": rnd.number})
    return rnd


@transaction.atomic
def go_round_repair(*, round: Round, user: AbstractBaseUser | None = None) -> Round:
    """Throw the draft's boards away and pair it again with the same seed (so the same field gives the same pairs)."""
    rnd = _draft(round)
    rnd.boards.all().delete()
    rnd.byes.all().delete()
    rnd.paired_at = timezone.now()
    rnd.save(update_fields=["paired_at"])
    _pair_into(rnd.tournament, rnd)
    return rnd


def _recheck(rnd: Round, data: TournamentData, state: pairing.TournamentState) -> None:
    """Store the rules the current (hand-changed) pairing breaks, plus the engine's note on an unpairable field."""
    boards = list(Board.objects.filter(round=rnd).order_by("number"))
    byes = [f"r{b}" for b in Bye.objects.filter(round=rnd).values_list("registration_id", flat=True)]
    present = data.present(rnd.number)
    if _is_dirs(data.go):
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
    kept = [i for i in rnd.issues if i["source"] == "engine" and i["rule"] == pairing.RULE_FIELD_UNPAIRABLE]
    rnd.issues = kept + [_issue_dict(i, "hand") for i in issues]


def _edit_context(rnd: Round) -> tuple[TournamentData, pairing.TournamentState]:
    data = tournament_data(go=rnd.tournament)
    return data, tournament_state(data, rnd.number - 1, players_upto=rnd.number)


def _registration_in(go: GoTournament, registration_id: int | str | None, field: str) -> Registration:
    try:
        return Registration.objects.get(tournament=go, pk=int(registration_id))
    except (TypeError, ValueError, Registration.DoesNotExist) as error:
        raise GoError(_("Choose a player of this tournament."), field) from error


def _renumber(rnd: Round) -> None:
    for i, b in enumerate(Board.objects.filter(round=rnd).order_by("number"), start=1):
        if b.number != i:
            Board.objects.filter(pk=b.pk).update(number=i)


@transaction.atomic
def go_round_unpair(*, round: Round, board_number: int, user: AbstractBaseUser | None = None) -> Round:
    """Remove a board from the draft; its two players are left unpaired until paired again by hand."""
    rnd = _draft(round)
    board = rnd.boards.select_related("white", "black").filter(number=board_number).first()
    if board is None:
        raise GoError(_("Board %(b)s is not in round %(n)s.") % {"b": board_number, "n": rnd.number}, "board")
    text = {
        "en": f"board {board.number} unpaired: {board.white.name} - {board.black.name}",
        "ru": f"доска {board.number} расформирована: {board.white.name} - {board.black.name}",
    }
    board.delete()
    data, state = _edit_context(rnd)
    _recheck(rnd, data, state)
    rnd.overrides = [*rnd.overrides, _override(user, "unpair", text)]
    rnd.save(update_fields=["issues", "overrides"])
    return rnd


def _occupied(rnd: Round, reg: Registration) -> str | None:
    board = rnd.boards.filter(white=reg).first() or rnd.boards.filter(black=reg).first()
    if board is not None:
        return _("%(name)s already plays on board %(b)s.") % {"name": reg.name, "b": board.number}
    if rnd.byes.filter(registration=reg).exists():
        return _("%(name)s already has a bye in this round.") % {"name": reg.name}
    return None


@transaction.atomic
def go_round_pair_by_hand(
    *, round: Round, first_id: int | str, second_id: int | str, user: AbstractBaseUser | None = None
) -> Round:
    """Add a board for two unpaired players; colours, stones and komi as the rules give them for their levels."""
    rnd = _draft(round)
    go = rnd.tournament
    a = _registration_in(go, first_id, "first")
    b = _registration_in(go, second_id, "second")
    if a.pk == b.pk:
        raise GoError(_("A player cannot play themselves."), "second")
    for reg, field in ((a, "first"), (b, "second")):
        problem = _occupied(rnd, reg)
        if problem:
            raise GoError(problem, field)
        if reg.first_round > rnd.number:
            raise GoError(_("%(name)s joins from round %(n)s.") % {"name": reg.name, "n": reg.first_round}, field)
    data, state = _edit_context(rnd)
    number = (rnd.boards.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    board = _board_for(go, state, a.key, b.key, seed=rnd.seed, number=number)
    _save_boards(rnd, [board], [])
    _recheck(rnd, data, state)
    text = {
        "en": f"paired by hand on board {number}: {a.name} - {b.name}",
        "ru": f"пара вручную на доске {number}: {a.name} - {b.name}",
    }
    rnd.overrides = [*rnd.overrides, _override(user, "pair", text)]
    rnd.save(update_fields=["issues", "overrides"])
    return rnd


@transaction.atomic
def go_round_swap(
    *, round: Round, first_id: int | str, second_id: int | str, user: AbstractBaseUser | None = None
) -> Round:
    """Exchange two players' places in the draft (boards or byes); the boards they land on are recomputed."""
    rnd = _draft(round)
    go = rnd.tournament
    a = _registration_in(go, first_id, "first")
    b = _registration_in(go, second_id, "second")
    if a.pk == b.pk:
        raise GoError(_("Choose two different players."), "second")
    boards = list(rnd.boards.order_by("number"))
    bye_ids = set(rnd.byes.values_list("registration_id", flat=True))
    pairs = {bd.number: [bd.white_id, bd.black_id] for bd in boards}

    def where(reg: Registration) -> tuple[str, int | None]:
        for number, ids in pairs.items():
            if reg.pk in ids:
                return "board", number
        return ("bye", None) if reg.pk in bye_ids else ("none", None)

    wa, wb = where(a), where(b)
    if wa == wb and wa[0] != "board":
        raise GoError(_("Neither player is on a board: pair them by hand instead."), "second")
    if wa[0] == "board" and wa == wb:
        raise GoError(_("The two players already play each other."), "second")
    for (kind, number), old, new in ((wa, a.pk, b.pk), (wb, b.pk, a.pk)):
        if kind == "board":
            ids = pairs[number]
            ids[ids.index(old)] = new
        elif kind == "bye":
            bye_ids.discard(old)
            bye_ids.add(new)
    data, state = _edit_context(rnd)
    rnd.boards.all().delete()
    rnd.byes.all().delete()
    new_boards = [
        _board_for(go, state, f"r{ids[0]}", f"r{ids[1]}", seed=rnd.seed, number=number)
        for number, ids in sorted(pairs.items())
    ]
    _save_boards(rnd, new_boards, [f"r{i}" for i in sorted(bye_ids)])
    _recheck(rnd, data, state)
    text = {"en": f"swapped {a.name} and {b.name}", "ru": f"обмен местами: {a.name} и {b.name}"}
    rnd.overrides = [*rnd.overrides, _override(user, "swap", text)]
    rnd.save(update_fields=["issues", "overrides"])
    return rnd


@transaction.atomic
def go_round_bye(
    *, round: Round, registration_id: int | str, give: bool = True, user: AbstractBaseUser | None = None
) -> Round:
    """Give an unpaired player a bye in the draft (refused for a player who is paired), or take a bye back."""
    rnd = _draft(round)
    reg = _registration_in(rnd.tournament, registration_id, "player")
    if give:
        problem = _occupied(rnd, reg)
        if problem:
            raise GoError(problem, "player")
        Bye.objects.create(round=rnd, registration=reg)
        text = {"en": f"bye given to {reg.name}", "ru": f"бай: {reg.name}"}
    else:
        if not rnd.byes.filter(registration=reg).delete()[0]:
            raise GoError(_("%(name)s has no bye in this round.") % {"name": reg.name}, "player")
        text = {"en": f"bye taken from {reg.name}", "ru": f"бай снят: {reg.name}"}
    data, state = _edit_context(rnd)
    _recheck(rnd, data, state)
    rnd.overrides = [*rnd.overrides, _override(user, "bye", text)]
    rnd.save(update_fields=["issues", "overrides"])
    return rnd


@transaction.atomic
def go_round_publish(*, round: Round) -> Round:
    rnd = _draft(round)
    if not rnd.boards.exists() and not rnd.byes.exists():
        raise GoError(_("Round %(n)s has no boards.") % {"n": rnd.number})
    rnd.status = RoundStatus.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    if not rnd.boards.exists():
        _complete(rnd)
    return rnd


@transaction.atomic
def go_round_unpublish(*, round: Round) -> Round:
    """Back to draft, allowed until the round's first result is in."""
    rnd = _lock_round(round)
    if not rnd.is_published:
        raise GoError(_("Round %(n)s is not published.") % {"n": rnd.number})
    if rnd.boards.exclude(result="").exists():
        raise GoError(_("Round %(n)s already has results: it cannot be unpublished.") % {"n": rnd.number})
    if rnd.tournament.rounds.filter(number__gt=rnd.number).exists():
        raise GoError(_("A later round has been paired."))
    rnd.status = RoundStatus.DRAFT
    rnd.published_at = None
    rnd.completed = False
    rnd.save(update_fields=["status", "published_at", "completed"])
    rnd.standings.all().delete()
    return rnd


# --- results ----------------------------------------------------------------------------------------------------


@transaction.atomic
def go_result_enter(
    *,
    round: Round,
    board_number: int,
    result: str,
    user: AbstractBaseUser | None = None,
    version: int | None = None,
) -> Board:
    """One board's result. The round row is locked, so results entered at once for one round are serialised.

    Refused: a board not in the round, a board that already has a result, a draw where draws are forbidden (and
    in a DIRS tournament), an unknown result, a round not published yet.
    """
    rnd = _lock_round(round)
    go = rnd.tournament
    if not rnd.is_published:
        raise GoError(_("Round %(n)s is not published yet.") % {"n": rnd.number}, "board")
    valid = [v for v in BoardResult.values if v]
    if result not in valid:
        raise GoError(_("Choose a result."), "result")
    board = rnd.boards.select_for_update().filter(number=board_number).first()
    if board is None:
        raise GoError(_("Board %(b)s is not in round %(n)s.") % {"b": board_number, "n": rnd.number}, "board")
    if board.result:
        raise GoError(
            _("Board %(b)s already has a result (%(r)s).") % {"b": board.number, "r": board.get_result_display()},
            "board",
        )
    if version is not None and version != board.version:
        raise GoError(_("Board %(b)s was changed meanwhile: reload the page.") % {"b": board.number}, "board")
    if result == BoardResult.DRAW and (not go.tournament.draws_allowed or _is_dirs(go)):
        raise GoError(_("This tournament does not allow draws."), "result")
    board.result = result
    board.entered_by = user if user is not None and user.is_authenticated else None
    board.entered_at = timezone.now()
    board.version += 1
    board.save(update_fields=["result", "entered_by", "entered_at", "version"])
    if _is_dirs(go) and go.rate_in_club:
        _rate_board_in_club(board, user)
    if not rnd.boards.filter(result="").exists():
        _complete(rnd)
    return board


def _result_label(value: str, language: str) -> str:
    """A board's result in one language for the round's record of changes by hand."""
    labels = {
        "en": {
            "": "no result",
            "white": "white wins",
            "black": "black wins",
            "draw": "draw",
            "white_forfeit": "white wins by forfeit",
            "black_forfeit": "black wins by forfeit",
        },
        "ru": {
            "": "нет результата",
            "white": "победа белых",
            "black": "победа чёрных",
            "draw": "ничья",
            "white_forfeit": "победа белых без игры",
            "black_forfeit": "победа чёрных без игры",
        },
    }
    return labels[language].get(value, value)


@transaction.atomic
def go_result_correct(
    *,
    round: Round,
    board_number: int,
    result: str,
    user: AbstractBaseUser | None = None,
    version: int | None = None,
) -> Board:
    """Correct (or, with ``result=""``, clear) a board's result while no later round has been paired.

    Decision: a later round was paired on the levels this result gave, so correcting under it would leave that
    round's handicaps wrong. The correction is refused then, with the way out: unpublish the later round (allowed
    until its first result) and delete its pairing, correct, pair again. The round's stored standings are computed
    again from all its results (levels, streaks, tie-breaks), or dropped while a board has no result. In a DIRS
    tournament rated in the club rating, the board's club game is taken back (allowed while it is the last club
    game of both players) and the corrected game is rated again. Locks as ``go_result_enter``: the round row, then
    the board row, and the board's ``version`` if the form sent it.
    """
    rnd = _lock_round(round)
    go = rnd.tournament
    if not rnd.is_published:
        raise GoError(_("Round %(n)s is not published yet.") % {"n": rnd.number}, "board")
    if result not in BoardResult.values:
        raise GoError(_("Choose a result."), "result")
    board = rnd.boards.select_for_update().select_related("white", "black").filter(number=board_number).first()
    if board is None:
        raise GoError(_("Board %(b)s is not in round %(n)s.") % {"b": board_number, "n": rnd.number}, "board")
    if version is not None and version != board.version:
        raise GoError(_("Board %(b)s was changed meanwhile: reload the page.") % {"b": board.number}, "board")
    if not board.result:
        raise GoError(_("Board %(b)s has no result yet: enter it instead.") % {"b": board.number}, "board")
    later = go.rounds.filter(number__gt=rnd.number).order_by("number").values_list("number", flat=True).first()
    if later is not None:
        raise GoError(
            _(
                "Round %(later)s is already paired on the levels after round %(n)s: unpublish round %(later)s and "
                "delete its pairing before correcting a result of round %(n)s."
            )
            % {"later": later, "n": rnd.number},
            "board",
        )
    if result == board.result:
        raise GoError(_("Board %(b)s already has this result.") % {"b": board.number}, "result")
    if result == BoardResult.DRAW and (not go.tournament.draws_allowed or _is_dirs(go)):
        raise GoError(_("This tournament does not allow draws."), "result")
    old = board.result
    if _is_dirs(go):
        game = DirsGame.objects.filter(board=board).first()
        if game is not None:
            _dirs_game_take_back(game)
    board.result = result
    board.entered_by = user if user is not None and user.is_authenticated else None
    board.entered_at = timezone.now() if result else None
    board.version += 1
    board.save(update_fields=["result", "entered_by", "entered_at", "version"])
    if result and _is_dirs(go) and go.rate_in_club:
        _rate_board_in_club(board, user)
    players = f"{board.white.name} - {board.black.name}"
    text = {
        "en": f"board {board.number} ({players}): {_result_label(old, 'en')} → {_result_label(result, 'en')}",
        "ru": f"доска {board.number} ({players}): {_result_label(old, 'ru')} → {_result_label(result, 'ru')}",
    }
    rnd.overrides = [*rnd.overrides, _override(user, "correct" if result else "clear", text)]
    rnd.save(update_fields=["overrides"])
    if rnd.boards.filter(result="").exists():
        rnd.standings.all().delete()
        if rnd.completed:
            rnd.completed = False
            rnd.save(update_fields=["completed"])
    else:
        _complete(rnd)
    return board


@transaction.atomic
def go_round_delete(*, round: Round) -> GoTournament:
    """Delete a draft round's pairing (boards, byes, the round), so an earlier result can be corrected."""
    rnd = _draft(round)
    go = rnd.tournament
    if go.rounds.filter(number__gt=rnd.number).exists():
        raise GoError(_("A later round has been paired."))
    rnd.boards.all().delete()
    rnd.byes.all().delete()
    rnd.delete()
    return go


def _complete(rnd: Round) -> None:
    """All results in: replay up to this round and store everyone's line of the standings."""
    data = tournament_data(go=rnd.tournament)
    state = tournament_state(data, rnd.number)
    rows = pairing.standings(state)
    by_key = {p.id: p for p in state.players}
    rnd.standings.all().delete()
    StandingRow.objects.bulk_create(
        [
            StandingRow(
                round=rnd,
                registration_id=_reg_id(s.player),
                place=s.place,
                shared=s.shared,
                start_level=s.start_level,
                level=s.level,
                tiebreak=s.tiebreak,
                streak=by_key[s.player].streak,
                explanation_en=s.explanation.en,
                explanation_ru=s.explanation.ru,
            )
            for s in rows
        ]
    )
    rnd.completed = True
    rnd.save(update_fields=["completed"])


def _rate_board_in_club(board: Board, user: AbstractBaseUser | None) -> None:
    """A DIRS tournament game also counts in the club rating, without the step cap (`rules/go.md`, part 2)."""
    white, black = board.white, board.black
    if white.player_id is None or black.player_id is None:
        return
    winner = board.winner_colour
    if winner is None:
        return
    go = board.round.tournament
    _dirs_game_record(
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


def _acceleration_before(game: DirsGame, player_id: int) -> int:
    """For a game recorded without it: the acceleration the player's previous club game left (0 if none)."""
    previous = (
        DirsGame.objects.filter(models.Q(white_id=player_id) | models.Q(black_id=player_id), id__lt=game.pk)
        .order_by("-id")
        .first()
    )
    if previous is None:
        return 0
    return previous.white_acceleration_after if previous.white_id == player_id else previous.black_acceleration_after


def _dirs_game_take_back(game: DirsGame) -> None:
    """Undo a tournament board's club game: both players get back their rating and acceleration from before it.

    Club games are rated in the order entered, so only the last game of both players can be taken back; a later
    club game of either was rated from the ratings this game gave.
    """
    players = [game.white_id, game.black_id]
    ratings = {r.player_id: r for r in DirsRating.objects.select_for_update().filter(player_id__in=players)}
    for player_id in players:
        last = (
            DirsGame.objects.filter(models.Q(white_id=player_id) | models.Q(black_id=player_id))
            .order_by("-id")
            .values_list("id", flat=True)
            .first()
        )
        if last != game.pk:
            name = game.white.full_name if player_id == game.white_id else game.black.full_name
            raise GoError(
                _("%(name)s has played a club game since: this game's club rating cannot be taken back.")
                % {"name": name},
                "board",
            )
    if game.rated:
        sides = (
            (game.white_id, game.white_before, game.white_acceleration_before),
            (game.black_id, game.black_before, game.black_acceleration_before),
        )
        for player_id, before, acceleration in sides:
            if acceleration is None:
                acceleration = _acceleration_before(game, player_id)
            row = ratings[player_id]
            row.rating = before
            row.acceleration = acceleration
            row.games = max(row.games - 1, 0)
            row.save(update_fields=["rating", "acceleration", "games", "updated_at"])
    game.delete()


# --- DIRS club rating -------------------------------------------------------------------------------------------


@transaction.atomic
def dirs_rating_set_initial(*, player: Player, rank: str, club: Club | None = None) -> DirsRating:
    """A newcomer's first DIRS rating from the declared rank (`rules/go.md`, part 2, "Decision (newcomers)")."""
    try:
        parsed = dirs.parse_rank(rank)
    except EngineError as error:
        raise GoError(error.message, "rank") from error
    if DirsRating.objects.filter(player=player).exists():
        raise GoError(_("%(name)s already has a DIRS rating.") % {"name": player.full_name}, "player")
    rating = dirs.rating_from_rank(parsed.number, parsed.kind)
    return DirsRating.objects.create(
        player=player, rating=rating, initial_rating=rating, declared_rank=parsed.short, club=club or player.club
    )


def _dirs_game_record(
    *,
    date: datetime.date,
    club: Club | None,
    white: Player,
    black: Player,
    handicap: int,
    komi: str,
    winner: str,
    user: AbstractBaseUser | None,
    board: Board | None = None,
) -> DirsGame:
    if white.pk == black.pk:
        raise GoError(_("A player cannot play themselves."), "black")
    ratings = {r.player_id: r for r in DirsRating.objects.select_for_update().filter(player__in=[white, black])}
    for player, field in ((white, "white"), (black, "black")):
        if player.pk not in ratings:
            raise GoError(
                _("%(name)s has no DIRS rating yet: set it from the declared rank first.") % {"name": player.full_name},
                field,
            )
    if not 0 <= handicap <= dirs.MAX_STONES:
        raise GoError(_("A game has 0 to 9 stones."), "handicap")
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
        raise GoError(error.message, error.field) from error
    explanation = outcome.explanation
    game = DirsGame(
        date=date,
        club=club,
        white=white,
        black=black,
        handicap=handicap,
        komi=komi,
        winner=winner,
        rated=outcome.rated,
        reason_en=outcome.check.reason.en,
        reason_ru=outcome.check.reason.ru,
        explanation_en=explanation.en,
        explanation_ru=explanation.ru,
        white_before=w.rating,
        black_before=b.rating,
        white_after=outcome.white_after.rating,
        black_after=outcome.black_after.rating,
        white_acceleration_after=outcome.white_after.acceleration,
        black_acceleration_after=outcome.black_after.acceleration,
        white_acceleration_before=w.acceleration,
        black_acceleration_before=b.acceleration,
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
) -> DirsGame:
    """Record a club game and rate it if it was played on the handicap DIRS prescribes (rated in entry order)."""
    return _dirs_game_record(
        date=date, club=club, white=white, black=black, handicap=handicap, komi=komi, winner=winner, user=user
    )
