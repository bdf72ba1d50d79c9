"""Reads for the crosstable, the standings with wins and streaks, and the venue's print sheets.

Each reads a fixed number of queries whatever the field's size (plain values, no model instance per board), so the
crosstable of a 500-player tournament is one page of text built in memory. Standings come from the stored rows of
a finished round (``StandingRow``); the rounds' games come from the boards as played (colour, stones, result).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ratings.dirs.calculator import handicap_text
from ratings.engines import dirs

from .models import Absence, Board, BoardResult, Bye, GoTournament, Registration, Round, RoundStatus, StandingRow
from .names import name_key
from .selectors import is_dirs

#: A game's sign for one player: won, lost, drawn; no result yet is "".
SIGNS = {"win": "+", "loss": "-", "draw": "="}


@dataclass
class Cell:
    """A player's round in the crosstable: a game (opponent's line number, result, colour, stones), a bye or not
    played (``kind`` game, bye, absent; a game without a result yet has ``sign`` empty)."""

    kind: str  # "game", "bye", "absent" or "requested" (a bye by request)
    opponent: int = 0
    opponent_name: str = ""
    sign: str = ""  # "+", "-", "=" or "" (no result yet)
    colour: str = ""  # "w" or "b"
    stones: int = 0
    forfeit: bool = False  # not played: a forfeit, or a double forfeit
    special: str = ""  # a special result for both players: its label (both win, both lose, ...)


@dataclass
class Line:
    """A line of the standings: place (shared or not), the player, levels, wins, streak, withdrawal, the rounds."""

    number: int
    place: int
    shared: bool
    registration_id: int
    name: str
    rank: str
    club: str
    start_level: int
    level: int
    tiebreak: int | None
    streak: int
    wins: int = 0
    withdrawn_after: int | None = None
    cells: list[Cell] = field(default_factory=list)


def completed_rounds(*, go: GoTournament) -> list[int]:
    return list(go.rounds.filter(completed=True).order_by("number").values_list("number", flat=True))


def chosen_round(*, go: GoTournament, requested: str | None) -> tuple[int | None, list[int]]:
    """The finished round asked for (``?round=``), else the last finished one; and every finished round."""
    completed = completed_rounds(go=go)
    if requested and requested.isdigit() and int(requested) in completed:
        return int(requested), completed
    return (completed[-1] if completed else None), completed


def _rank(go: GoTournament, rating: int) -> str:
    """Kyu/dan of a registration's rating: the DIRS scale, or the tournament scale (100 a stone, r // 10 on DIRS)."""
    return dirs.rank_of(max(rating if is_dirs(go) else rating // 10, 0)).short


def standings_table(*, go: GoTournament, upto: int, language: str, cells: bool = True) -> list[Line]:
    """Everyone's line after round ``upto`` in the order of the standings, numbered 1..N (the crosstable names
    opponents by that number), with wins (a bye is a win, `rules/go.md`) and, with ``cells``, every round."""
    rows = sorted(
        StandingRow.objects.filter(round__tournament=go, round__number=upto).select_related("registration"),
        key=lambda row: (row.place, name_key(row.registration.display_name(language)), row.registration_id),
    )
    lines = []
    number_of: dict[int, int] = {}
    for k, row in enumerate(rows, start=1):
        reg = row.registration
        number_of[reg.pk] = k
        lines.append(
            Line(
                number=k,
                place=row.place,
                shared=row.shared,
                registration_id=reg.pk,
                name=reg.display_name(language),
                rank=_rank(go, reg.rating),
                club=reg.club_name,
                start_level=row.start_level,
                level=row.level,
                tiebreak=row.tiebreak,
                streak=row.streak,
                withdrawn_after=reg.withdrawn_after,
            )
        )
    by_id = {line.registration_id: line for line in lines}
    grid: dict[int, dict[int, Cell]] = defaultdict(dict)
    games = Board.objects.filter(round__tournament=go, round__number__lte=upto).values_list(
        "round__number", "white_id", "black_id", "handicap", "result"
    )
    labels = dict(BoardResult.choices)
    for number, white, black, stones, result in games:
        board = Board(result=result)
        special = str(labels[result]) if board.both else ""
        for me, other, colour in ((white, black, "white"), (black, white, "black")):
            sign = SIGNS.get(board.outcome(colour), "")
            if sign == "+" and me in by_id:
                by_id[me].wins += 1
            if cells:
                opponent = by_id.get(other)
                grid[me][number] = Cell(
                    "game",
                    number_of.get(other, 0),
                    opponent.name if opponent else "",
                    sign,
                    colour[0],
                    stones,
                    board.unplayed,
                    special,
                )
    for number, reg_id in Bye.objects.filter(round__tournament=go, round__number__lte=upto).values_list(
        "round__number", "registration_id"
    ):
        if reg_id in by_id:
            by_id[reg_id].wins += 1
        grid[reg_id][number] = Cell("bye", sign="+")
    if cells:
        requested = set(
            Absence.objects.filter(registration__tournament=go, requested=True, round_number__lte=upto).values_list(
                "registration_id", "round_number"
            )
        )
        for line in lines:
            mine = grid.get(line.registration_id, {})
            line.cells = [
                mine.get(n) or Cell("requested" if (line.registration_id, n) in requested else "absent")
                for n in range(1, upto + 1)
            ]
    return lines


# --- the venue's sheets for one round ------------------------------------------------------------------------------


@dataclass
class SheetBoard:
    number: int
    white: str
    black: str
    white_level: int
    black_level: int
    handicap: str
    result: str


@dataclass
class SeatLine:
    """A player's seat in the alphabetical list: board and colour, or a bye, or not playing this round."""

    name: str
    board: int | None = None
    colour: str = ""
    opponent: str = ""
    handicap: str = ""
    bye: bool = False


def round_sheet(*, go_round: Round, language: str) -> list[SheetBoard]:
    """The round's boards by number, names in the reader's alphabet, handicap and komi in words."""
    boards = go_round.boards.select_related("white", "black").order_by("number")
    return [
        SheetBoard(
            b.number,
            b.white.display_name(language),
            b.black.display_name(language),
            b.white_level,
            b.black_level,
            handicap_text(b.handicap, b.komi_kind, b.komi),
            b.get_result_display() if b.result else "",
        )
        for b in boards
    ]


def seats(*, go_round: Round, language: str) -> list[SeatLine]:
    """Every player of the tournament from A to Z with where they sit this round, so players find their table.

    A player with no board and no bye is listed as not playing (absent, withdrawn, or not joined yet).
    """
    go = go_round.tournament
    registrations = {r.pk: r for r in Registration.objects.filter(tournament=go)}
    names = {pk: r.display_name(language) for pk, r in registrations.items()}
    lines: dict[int, SeatLine] = {pk: SeatLine(name) for pk, name in names.items()}
    for b in go_round.boards.order_by("number"):
        text = handicap_text(b.handicap, b.komi_kind, b.komi)
        lines[b.white_id] = SeatLine(names[b.white_id], b.number, "white", names[b.black_id], text)
        lines[b.black_id] = SeatLine(names[b.black_id], b.number, "black", names[b.white_id], text)
    for reg_id in go_round.byes.values_list("registration_id", flat=True):
        lines[reg_id] = SeatLine(names[reg_id], bye=True)
    return sorted(lines.values(), key=lambda line: (name_key(line.name), line.board or 0))


def visible_round(*, go: GoTournament, number: int, director: bool) -> Round | None:
    """The round, if the reader may see it: a draft only to the director."""
    rounds = Round.objects.filter(tournament=go, number=number)
    if not director:
        rounds = rounds.filter(status=RoundStatus.PUBLISHED)
    return rounds.select_related("tournament__tournament").first()
