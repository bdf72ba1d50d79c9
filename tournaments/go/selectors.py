"""Reads for Go tournaments: the engine's input built from rows and its state, the pages' rows, the EGD table.

``tournament_data`` reads a tournament in a fixed number of queries; ``tournament_state`` replays it with the
engine of its system (``tournaments.pairing`` or, for DIRS tournaments, ``dirs_mode``). The pages' other reads
(progress, rounds, standings, a player's games, the member search) are here too, so the views only render.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.utils import translation
from django.utils.translation import gettext as _

from federation.models import Player
from federation.roles import FEDERATION_STAFF
from federation.selectors import player_search
from ratings.engines import dirs
from tournaments import pairing
from tournaments.models import GoSystem, TournamentStatus
from tournaments.services import tournament_results_locked

from . import dirs_mode, egd
from .models import (
    Absence,
    Board,
    BoardResult,
    Bye,
    DirectorLog,
    GoTournament,
    Registration,
    Round,
    RoundStatus,
)
from .names import name_key


def is_staff(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Federation staff (the group) or a superuser: they see and run every tournament."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    cached = getattr(user, "_go_is_staff", None)
    if cached is None:
        cached = user.groups.filter(name=FEDERATION_STAFF).exists()
        user._go_is_staff = cached
    return cached


def is_director(user: AbstractBaseUser | AnonymousUser, tournament: GoTournament) -> bool:
    """The tournament's organiser, federation staff, or a superuser."""
    if not user.is_authenticated:
        return False
    if tournament.tournament.organiser_id == user.pk:
        return True
    return is_staff(user)


def is_public(go: GoTournament) -> bool:
    """An approved tournament is everyone's; a draft or a submitted one is its director's and staff's alone, as
    ``/tournaments/<id>/`` and the API have it (``federation.selectors.public_tournaments``)."""
    return go.tournament.status == TournamentStatus.APPROVED


def write_lock(user: AbstractBaseUser | AnonymousUser, go: GoTournament) -> str:
    """Why ``user`` may not change this tournament now ("" when they may): the admin's lock, one rule for both
    (``tournaments.services.tournament_results_locked``): a submitted or approved tournament is changed by
    federation staff only, until staff return it to draft."""
    if not user.is_authenticated:
        return _("Sign in to change the tournament.")
    return tournament_results_locked(tournament=go.tournament, user=user)


def is_dirs(go: GoTournament) -> bool:
    return go.tournament.go_system == GoSystem.DIRS


def draws_allowed(go: GoTournament) -> bool:
    """`rules/go.md`, Decision (draws): allowed where the tournament allows them; DIRS knows no draws."""
    return go.tournament.draws_allowed and not is_dirs(go)


def go_options(go: GoTournament) -> pairing.Options:
    t = go.tournament
    if is_dirs(go):
        # A DIRS tournament pairs on the DIRS scale (dirs_mode); these options only fix the komi amounts.
        return pairing.Options(
            rounds=t.rounds or 1,
            half_stone=True,
            tiebreak=True,
            komi_normal=float(go.komi_normal),
            komi_none=float(go.komi_none),
            komi_reverse=float(go.komi_reverse),
        )
    return pairing.Options(
        rounds=t.rounds or 1,
        half_stone=t.half_stone,
        acceleration=t.acceleration,
        draws_allowed=t.draws_allowed,
        tiebreak=go.tiebreak,
        komi_normal=float(go.komi_normal),
        komi_none=float(go.komi_none),
        komi_reverse=float(go.komi_reverse),
    )


@dataclass
class TournamentData:
    """Everything the engine needs about a tournament up to a round, read in a fixed number of queries."""

    go: GoTournament
    registrations: list[Registration]
    absences: dict[int, set[int]]
    rounds: list[Round]
    boards: dict[int, list[Board]]
    byes: dict[int, list[Bye]]

    def entrants(self, upto: int) -> list[pairing.Entrant]:
        """Registrations that exist by round ``upto``, absent wherever they did not play and were not present."""
        played: dict[int, set[int]] = defaultdict(set)
        for rnd in self.rounds:
            if rnd.number > upto:
                continue
            for b in self.boards.get(rnd.pk, []):
                played[b.white_id].add(rnd.number)
                played[b.black_id].add(rnd.number)
            for bye in self.byes.get(rnd.pk, []):
                played[bye.registration_id].add(rnd.number)
        rounds_total = self.go.tournament.rounds or 1
        result = []
        for reg in self.registrations:
            if reg.first_round > upto:
                continue
            marks = self.absences.get(reg.pk, set())
            absent = {n for n in range(1, rounds_total + 1) if not reg.present_in(n, marks) and n not in played[reg.pk]}
            result.append(pairing.Entrant(reg.key, reg.rating, reg.name, frozenset(absent)))
        return result

    def games(self, upto: int) -> list[list[pairing.GameResult | pairing.ByeResult]]:
        """Rounds 1..upto as the engine's results (every board of those rounds must have a result)."""
        out = []
        for rnd in self.rounds:
            if rnd.number > upto:
                break
            items: list[pairing.GameResult | pairing.ByeResult] = []
            for b in self.boards.get(rnd.pk, []):
                colour = b.winner_colour
                winner = None if colour is None else (f"r{b.white_id}" if colour == "white" else f"r{b.black_id}")
                items.append(
                    pairing.GameResult(f"r{b.white_id}", f"r{b.black_id}", winner, b.handicap, b.komi_kind, b.both)
                )
            items.extend(pairing.ByeResult(f"r{bye.registration_id}") for bye in self.byes.get(rnd.pk, []))
            out.append(items)
        return out

    def present(self, round_number: int) -> list[str]:
        return [
            r.key
            for r in self.registrations
            if r.present_in(round_number, self.absences.get(r.pk, set())) and r.first_round <= round_number
        ]


def tournament_data(*, go: GoTournament) -> TournamentData:
    registrations = list(Registration.objects.filter(tournament=go).order_by("id"))
    absences: dict[int, set[int]] = defaultdict(set)
    for reg_id, number in Absence.objects.filter(registration__tournament=go).values_list(
        "registration_id", "round_number"
    ):
        absences[reg_id].add(number)
    rounds = list(Round.objects.filter(tournament=go).order_by("number"))
    boards: dict[int, list[Board]] = defaultdict(list)
    for b in Board.objects.filter(round__tournament=go).order_by("round_id", "number"):
        boards[b.round_id].append(b)
    byes: dict[int, list[Bye]] = defaultdict(list)
    for bye in Bye.objects.filter(round__tournament=go).order_by("round_id", "registration_id"):
        byes[bye.round_id].append(bye)
    return TournamentData(go, registrations, dict(absences), rounds, dict(boards), dict(byes))


def tournament_state(data: TournamentData, upto: int, *, players_upto: int | None = None) -> pairing.TournamentState:
    """The engine's state after rounds 1..upto, with the players registered by round ``players_upto`` (or upto)."""
    options = go_options(data.go)
    entrants = data.entrants(players_upto or upto)
    games = data.games(upto)
    if is_dirs(data.go):
        return dirs_mode.replay(options, entrants, games)
    return pairing.replay(options, entrants, games)


# --- the pages ----------------------------------------------------------------------------------------------------


def go_tournament_list(*, user: AbstractBaseUser | AnonymousUser | None = None) -> QuerySet[GoTournament]:
    """The tournaments ``user`` may see: approved ones, and their own drafts and submitted ones (staff: all)."""
    tournaments = GoTournament.objects.select_related("tournament").order_by(
        "-tournament__start_date", "tournament__name"
    )
    if user is not None and is_staff(user):
        return tournaments
    visible = Q(tournament__status=TournamentStatus.APPROVED)
    if user is not None and user.is_authenticated:
        visible |= Q(tournament__organiser=user)
    return tournaments.filter(visible)


def go_tournament_get(*, pk: int) -> GoTournament:
    return GoTournament.objects.select_related("tournament", "tournament__organiser").get(pk=pk)


@dataclass(frozen=True)
class Progress:
    """Where a tournament stands: its rounds so far, whether the next can be paired, whether it is over."""

    rounds: list[Round]
    can_pair: bool
    finished: bool


def tournament_progress(*, go: GoTournament) -> Progress:
    """The next round can be paired once the last is published with every result in, until the last round."""
    rounds = list(go.rounds.order_by("number"))
    last = rounds[-1] if rounds else None
    planned = go.tournament.rounds or 1
    return Progress(
        rounds=rounds,
        can_pair=(last is None or (last.is_published and last.completed)) and len(rounds) < planned,
        finished=bool(last and last.completed and last.number == go.tournament.rounds),
    )


def by_name(registrations, language: str) -> list[Registration]:
    """Registrations in the order of the names the page shows (``names.name_key``: Ё with Е, the reader's
    alphabet; the English pages by the Latin name)."""
    return sorted(registrations, key=lambda r: (name_key(r.display_name(language)), r.pk))


def registrations_with_absences(*, go: GoTournament, language: str = "ru") -> list[Registration]:
    """The players by name, each with ``absent_rounds``: the rounds they are marked absent in."""
    registrations = by_name(go.registrations.all(), language)
    absences: dict[int, list[int]] = defaultdict(list)
    requested: dict[int, set[int]] = defaultdict(set)
    for reg_id, number, by_request in Absence.objects.filter(registration__tournament=go).values_list(
        "registration_id", "round_number", "requested"
    ):
        absences[reg_id].append(number)
        if by_request:
            requested[reg_id].add(number)
    for reg in registrations:
        reg.absent_rounds = sorted(absences.get(reg.pk, []))
        reg.requested_rounds = requested.get(reg.pk, set())
    return registrations


def member_search(*, search: str, limit: int) -> QuerySet[Player]:
    """Federation members (no bots) whose name matches in Cyrillic or Latin, with club and DIRS rating, A to Z."""
    players = Player.objects.filter(is_bot=False).select_related("club", "dirs")
    return player_search(queryset=players, search=search).order_by("last_name", "first_name", "id")[:limit]


def member_rows(*, go: GoTournament, query: str, language: str, limit: int) -> list[dict]:
    """Members whose name matches ``query`` in either alphabet, at most ``limit``, each with what the director
    needs to tell namesakes apart (other alphabet, club, city, DIRS rating) and whether they are registered."""
    if not query.strip():
        return []
    players = sorted(member_search(search=query, limit=limit), key=lambda p: name_key(p.display_name(language)))
    registered = set(
        Registration.objects.filter(tournament=go, player_id__in=[p.pk for p in players]).values_list(
            "player_id", flat=True
        )
    )
    rows = []
    for p in players:
        dirs_rating = getattr(p, "dirs", None)
        rows.append(
            {
                "id": p.pk,
                "name": p.display_name(language),
                "other_name": p.full_name_latin if language.startswith("ru") else p.full_name,
                "club": p.club.name if p.club_id else "",
                "city": p.city,
                "dirs": dirs_rating.rating if dirs_rating is not None else None,
                "rank": dirs.rank_of(dirs_rating.rating).short if dirs_rating is not None else "",
                "registered": p.pk in registered,
            }
        )
    return rows


def round_boards(*, go_round: Round) -> list[Board]:
    return list(go_round.boards.select_related("white", "black").order_by("number"))


def round_byes(*, go_round: Round, language: str = "ru") -> list[Bye]:
    byes = go_round.byes.select_related("registration")
    return sorted(byes, key=lambda b: (name_key(b.registration.display_name(language)), b.registration_id))


def round_unpaired(
    *, go_round: Round, registrations: list[Registration], boards: list[Board], byes: list[Bye], language: str = "ru"
) -> list[Registration]:
    """The players who play this round (joined, present, not withdrawn) with neither a board nor a bye in it."""
    taken = {b.white_id for b in boards} | {b.registration_id for b in byes} | {b.black_id for b in boards}
    absent = set(
        Absence.objects.filter(
            registration__tournament_id=go_round.tournament_id, round_number=go_round.number
        ).values_list("registration_id", flat=True)
    )
    return [
        r
        for r in by_name(registrations, language)
        if r.pk not in taken
        and r.first_round <= go_round.number
        and r.present_in(go_round.number)
        and r.pk not in absent
    ]


def director_log(*, go: GoTournament, round_number: int | None = None) -> list[DirectorLog]:
    """The director's record, oldest first: the whole tournament, or one round's lines."""
    rows = DirectorLog.objects.filter(tournament=go)
    if round_number is not None:
        rows = rows.filter(round_number=round_number)
    return list(rows.order_by("at", "id"))


def player_games(*, registration: Registration) -> list[dict]:
    """The player's rounds in order: board, colour, opponent, handicap, komi, result; byes and absences too."""
    go = registration.tournament
    boards = (
        Board.objects.filter(Q(white=registration) | Q(black=registration), round__tournament=go)
        .select_related("round", "white", "black")
        .order_by("round__number")
    )
    byes = set(Bye.objects.filter(registration=registration).values_list("round__number", flat=True))
    requested = set(registration.absences.filter(requested=True).values_list("round_number", flat=True))
    by_round = {b.round.number: b for b in boards if b.round.status == RoundStatus.PUBLISHED}
    rounds = list(go.rounds.filter(status=RoundStatus.PUBLISHED).order_by("number").values_list("number", flat=True))
    rows = []
    for number in rounds:
        b = by_round.get(number)
        if b is not None:
            white = b.white_id == registration.pk
            rows.append(
                {
                    "round": number,
                    "board": b,
                    "colour": "white" if white else "black",
                    "opponent": b.black if white else b.white,
                    "outcome": b.outcome("white" if white else "black"),
                    "forfeit": b.unplayed,
                    "special": b.get_result_display() if b.both else "",
                }
            )
        elif number in byes:
            rows.append({"round": number, "bye": True})
        else:
            rows.append({"round": number, "absent": True, "requested": number in requested})
    return rows


# --- the EGD exchange (rules/go.md, part 3) ---------------------------------------------------------------------


def egd_refusal(*, go: GoTournament) -> str | None:
    """Why the EGD table cannot be made yet (None: it can): only a finished tournament, with its class chosen."""
    progress = tournament_progress(go=go)
    if not progress.finished:
        return _("The EGD table is made once the tournament is finished: all %(n)s rounds with every result in.") % {
            "n": go.tournament.rounds
        }
    if not go.egd_class:
        return _("The director chooses the tournament's EGD class (A to D) before the EGD table is made.")
    return None


def egd_table(*, go: GoTournament) -> str | None:
    """The EGD results table of a finished tournament with its class chosen (None before that).

    Read in a fixed number of queries whatever the field's size: the tournament's rows, then the members among
    its players in one query for their Latin names. Names in Latin: the member's Latin name where the site has
    one, else the registration's Latin name, else the transliteration (``egd.field``).
    """
    if egd_refusal(go=go):
        return None
    data = tournament_data(go=go)
    upto = data.rounds[-1].number
    state = tournament_state(data, upto)
    members = Player.objects.in_bulk([r.player_id for r in data.registrations if r.player_id])
    unrated: dict[int, dict[int, str]] = defaultdict(dict)
    for rnd in data.rounds:
        for b in data.boards.get(rnd.pk, []):
            if b.result == BoardResult.DOUBLE_FORFEIT:
                kind = "double_forfeit"
            elif b.unplayed:
                kind = "forfeit"
            elif b.both:
                kind = "both"
            else:
                continue
            unrated[b.white_id][rnd.number] = unrated[b.black_id][rnd.number] = kind
    scale_divisor = 1 if is_dirs(go) else 10
    players = {}
    for reg in data.registrations:
        member = members.get(reg.player_id)
        if member is not None:
            surname = member.last_name_latin or member.last_name
            first = member.first_name_latin or member.first_name
        elif reg.surname_latin:
            surname, first = reg.surname_latin, reg.given_name_latin
        else:  # transliterated by ``egd.field``
            surname, first = reg.surname, reg.given_name
        rank = dirs.rank_of(max(reg.rating // scale_divisor, 0)).short
        players[reg.key] = egd.EgdPlayer(
            surname,
            first,
            rank,
            reg.country,
            reg.club_name,
            unrated=unrated.get(reg.pk, {}),
            rating=reg.rating * (10 // scale_divisor),  # the tournament scale: a DIRS rating r is 10 r
            pin=reg.egd_pin or (member.egd_pin if member is not None else ""),
            withdrawn_after=reg.withdrawn_after,
        )
    t = go.tournament
    meta = egd.EgdMeta(
        name=t.name,
        country=t.country,
        city=t.city,
        start=t.start_date.isoformat(),
        end=t.end_date.isoformat(),
        komi=float(go.komi_normal),
        time_minutes=go.time_minutes,
        egd_class=go.egd_class,
    )
    with translation.override("en"):  # the file is for EGD: the system's name in English
        meta = replace(meta, system=str(GoSystem(t.go_system).label) if t.go_system else "")
    return egd.egd_table(state=state, standings=pairing.standings(state), players=players, meta=meta)


def explanation_with_names(
    *, go: GoTournament, text: str, language: str, known: list[Registration] | tuple = ()
) -> str:
    """A stored standings explanation with each opponent by name instead of the engine's key (``r66``).
    ``known``: registrations already read (a player's opponents); the others in one query."""
    import re

    keys = {int(k) for k in re.findall(r"\br(\d+)\b", text)}
    if not keys:
        return text
    names = {f"r{reg.pk}": reg.display_name(language) for reg in known if reg is not None and reg.pk in keys}
    missing = [k for k in keys if f"r{k}" not in names]
    if missing:
        for reg in Registration.objects.filter(tournament=go, pk__in=missing).select_related("player"):
            names[f"r{reg.pk}"] = reg.display_name(language)
    return re.sub(r"\br\d+\b", lambda match: names.get(match.group(0), match.group(0)), text)
