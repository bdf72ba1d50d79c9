"""Reads for Go: the engine's input built from rows, the rounds, the standings rows, the DIRS lists."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import Rank

from federation.models import Player
from federation.roles import FEDERATION_STAFF
from federation.selectors import player_search
from ratings.engines import dirs
from tournaments import pairing
from tournaments.models import GoSystem

from .models import (
    Absence,
    Board,
    BoardResult,
    Bye,
    DirsGame,
    DirsRating,
    GoTournament,
    Registration,
    Round,
    RoundStatus,
    StandingRow,
)


def is_director(user: AbstractBaseUser | AnonymousUser, tournament: GoTournament) -> bool:
    """The tournament's organiser, federation staff, or a superuser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or tournament.tournament.organiser_id == user.pk:
        return True
    return user.groups.filter(name=FEDERATION_STAFF).exists()


def go_options(go: GoTournament) -> pairing.Options:
    t = go.tournament
    if t.go_system == GoSystem.DIRS:
        # A DIRS tournament pairs on the DIRS scale (services._dirs_state); these options only fix the komi amounts.
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

    @property
    def by_key(self) -> dict[str, Registration]:
        return {r.key: r for r in self.registrations}

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
                items.append(pairing.GameResult(f"r{b.white_id}", f"r{b.black_id}", winner, b.handicap, b.komi_kind))
            items.extend(pairing.ByeResult(f"r{bye.registration_id}") for bye in self.byes.get(rnd.pk, []))
            out.append(items)
        return out

    def present(self, round_number: int) -> list[str]:
        return [
            r.key
            for r in self.registrations
            if r.present_in(round_number, self.absences.get(r.pk, set())) and r.first_round <= round_number
        ]


def tournament_data(*, go: GoTournament, lock: bool = False) -> TournamentData:
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


def member_search(*, search: str, limit: int) -> QuerySet[Player]:
    """Federation members (no bots) whose name matches in Cyrillic or Latin, with club and DIRS rating, A to Z."""
    players = Player.objects.filter(is_bot=False).select_related("club", "dirs")
    return player_search(queryset=players, search=search).order_by("last_name", "first_name", "id")[:limit]


def go_tournament_list() -> QuerySet[GoTournament]:
    return GoTournament.objects.select_related("tournament").order_by("-tournament__start_date", "tournament__name")


def go_tournament_get(*, pk: int) -> GoTournament:
    return GoTournament.objects.select_related("tournament", "tournament__organiser").get(pk=pk)


def round_boards(*, round: Round) -> list[Board]:
    return list(round.boards.select_related("white", "black").order_by("number"))


def round_byes(*, round: Round) -> list[Bye]:
    return list(round.byes.select_related("registration").order_by("registration__name"))


def last_completed_round(*, go: GoTournament) -> Round | None:
    return go.rounds.filter(completed=True).order_by("-number").first()


def standing_rows(*, round: Round) -> QuerySet[StandingRow]:
    return round.standings.select_related("registration").order_by("place", "registration__name")


def player_games(*, registration: Registration) -> list[dict]:
    """The player's rounds in order: board, colour, opponent, handicap, komi, result; byes and absences too."""
    go = registration.tournament
    boards = (
        Board.objects.filter(Q(white=registration) | Q(black=registration), round__tournament=go)
        .select_related("round", "white", "black")
        .order_by("round__number")
    )
    byes = set(Bye.objects.filter(registration=registration).values_list("round__number", flat=True))
    by_round = {b.round.number: b for b in boards if b.round.status == RoundStatus.PUBLISHED}
    rounds = list(go.rounds.filter(status=RoundStatus.PUBLISHED).order_by("number").values_list("number", flat=True))
    rows = []
    for number in rounds:
        b = by_round.get(number)
        if b is not None:
            white = b.white_id == registration.pk
            colour = b.winner_colour
            if b.result == BoardResult.DRAW:
                outcome = "draw"
            elif colour is None:
                outcome = ""
            else:
                outcome = "win" if (colour == "white") == white else "loss"
            rows.append(
                {
                    "round": number,
                    "board": b,
                    "colour": "white" if white else "black",
                    "opponent": b.black if white else b.white,
                    "outcome": outcome,
                    "forfeit": b.result.endswith("forfeit"),
                }
            )
        elif number in byes:
            rows.append({"round": number, "bye": True})
        else:
            rows.append({"round": number, "absent": True})
    return rows


# --- DIRS -------------------------------------------------------------------------------------------------------


def dirs_leaderboard() -> QuerySet[DirsRating]:
    """Everyone with a DIRS rating, best first; ``place`` is shared by equal ratings (within the filter applied)."""
    return (
        DirsRating.objects.select_related("player", "club")
        .annotate(place=Window(Rank(), order_by=F("rating").desc()))
        .order_by("-rating", "player__last_name", "player_id")
    )


def dirs_player_games(*, player_id: int) -> QuerySet[DirsGame]:
    return (
        DirsGame.objects.filter(Q(white_id=player_id) | Q(black_id=player_id))
        .select_related("white", "black", "club")
        .order_by("id")
    )


def dirs_chart_points(*, rating: DirsRating, games: list[DirsGame]) -> list[dict]:
    """The rating after each game of the player (the first point is the initial rating)."""
    points = [{"x": 0, "date": None, "rating": rating.initial_rating}]
    for i, g in enumerate(games, start=1):
        after = g.white_after if g.white_id == rating.player_id else g.black_after
        points.append({"x": i, "date": g.date.isoformat(), "rating": after})
    return points


def rank_label(rating: int) -> str:
    """Kyu/dan label on the DIRS scale (rules/go.md, scales): 205 -> 1k, 210 -> 1d."""
    return dirs.rank_of(max(int(rating), 0)).short
