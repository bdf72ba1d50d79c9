"""A finished tournament from its EGD results table (`.h9`): the site's own record of a tournament played
elsewhere or before the site, replayed round by round with the self-handicap rules chosen by the director.

The file gives who played whom in each round, with colour, stones and result; the site gives the levels, standings
and tie-breaks (`rules/go.md`, part 1) from the ranks in the file. Decisions where the file is silent: a game
without a colour gives white to the higher rank (then the better place); stones not written are 0; a game on
stones has no komi and an even game normal komi (the file carries no komi per game); more than 9 stones is
written as 9, the most a board holds (shown in the preview); ``0+`` is a bye, ``0-`` and ``0=`` are absences (the
rules know no half-point round); ``!`` marks a win by forfeit. A file with draws makes a tournament that allows
them. Players are matched against the members as in the player import (``imports.match_players``).
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import pairing
from tournaments.models import GoSystem

from ..egd_read import Entry, PlayerRow, Table, rank_rating
from ..models import Absence, Board, BoardResult, Bye, GoTournament, Registration, Round, RoundStatus
from ..selectors import tournament_data, tournament_state
from .common import GoError, log
from .imports import match_players, register_matches
from .registrations import go_tournament_create
from .results import complete_round


def history_notes(table: Table) -> list[str]:
    """What the import will change from the file, for the preview: boards above 9 stones, half-point rounds."""
    notes = []
    for p in table.players:
        for r, e in enumerate(p.entries, start=1):
            if e.opponent and (e.stones or 0) > pairing.MAX_STONES:
                notes.append(
                    _("line %(n)s, round %(r)s: %(s)s stones are recorded as 9, the most a board holds")
                    % {"n": p.line, "r": r, "s": e.stones}
                )
            elif e.opponent == 0 and e.sign == "=":
                notes.append(
                    _("line %(n)s, round %(r)s: a half-point free round is recorded as an absence")
                    % {"n": p.line, "r": r}
                )
    return notes


def _has_draws(table: Table) -> bool:
    return any(e.opponent and e.sign == "=" for p in table.players for e in p.entries)


@transaction.atomic
def go_history_import(
    *,
    table: Table,
    choices: dict[str, str],
    user: AbstractBaseUser,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date,
    city: str = "",
    country: str = "RU",
    system: str = GoSystem.FUS,
    half_stone: bool = True,
    acceleration: bool = True,
    tiebreak: bool = True,
    komi_normal: Decimal = Decimal("6.5"),
    time_minutes: int = 60,
    egd_class: str = "",
    filename: str = "",
) -> GoTournament:
    """Create the tournament, its players (as the director matched them) and every round, finished; all or nothing."""
    if table.problems:
        raise GoError("file", table.problems[0])
    if system == GoSystem.DIRS:
        raise GoError(
            "system", _("A finished tournament is imported as PROFS or FUS (DIRS rates its games as played).")
        )
    if not table.rounds:
        raise GoError("file", _("The file has no rounds."))
    go = go_tournament_create(
        user=user,
        name=name,
        start_date=start_date,
        end_date=end_date,
        city=city,
        country=country,
        system=system,
        rounds=table.rounds,
        half_stone=half_stone,
        acceleration=acceleration,
        draws_allowed=_has_draws(table),
        tiebreak=tiebreak,
        komi_normal=komi_normal,
        rate_in_club=False,
        time_minutes=time_minutes,
    )
    if egd_class:
        go.egd_class = egd_class
        go.save(update_fields=["egd_class"])
    matches = match_players(table.players, go=go)
    registered = register_matches(go=go, matches=matches, choices=choices, user=user, require_all=True)
    by_place = {m.row.place: registered[m.key] for m in matches}
    rows = {m.row.place: m.row for m in matches}
    for number in range(1, table.rounds + 1):
        _import_round(go, number, rows, by_place)
    text = {
        "en": f"imported as history from {filename or 'an EGD table'}: {len(by_place)} players, {table.rounds} rounds",
        "ru": f"импорт истории из {filename or 'таблицы EGD'}: игроков {len(by_place)}, туров {table.rounds}",
    }
    log(go, user, "import_history", text)
    return go


def _import_round(go: GoTournament, number: int, rows: dict[int, PlayerRow], regs: dict[int, Registration]) -> None:
    now = timezone.now()
    go_round = Round.objects.create(
        tournament=go, number=number, seed=0, status=RoundStatus.PUBLISHED, paired_at=now, published_at=now
    )
    byes, absences = [], []
    for place, row in rows.items():
        e = row.entries[number - 1]
        if e.opponent == 0:
            (byes if e.sign == "+" else absences).append(regs[place])
    Absence.objects.bulk_create([Absence(registration=r, round_number=number) for r in absences])
    Bye.objects.bulk_create([Bye(round=go_round, registration=r) for r in byes])
    state = tournament_state(tournament_data(go=go), number - 1, players_upto=number)
    options = state.options
    boards = []
    for place in sorted(rows):
        e = rows[place].entries[number - 1]
        if e.opponent == 0 or e.opponent < place:
            continue
        other = rows[e.opponent].entries[number - 1]
        white_place = _white(place, e, e.opponent, other, rows)
        black_place = e.opponent if white_place == place else place
        white_entry = e if white_place == place else other
        stones = min(e.stones if e.stones is not None else (other.stones or 0), pairing.MAX_STONES)
        kind = pairing.KOMI_NORMAL if stones == 0 else pairing.KOMI_NONE
        white, black = regs[white_place], regs[black_place]
        boards.append(
            Board(
                round=go_round,
                number=len(boards) + 1,
                white=white,
                black=black,
                white_level=state.player(white.key).level,
                black_level=state.player(black.key).level,
                handicap=stones,
                komi_kind=kind,
                komi=Decimal(str(options.komi_points(kind))),
                result=_result(white_entry, forfeit=e.unplayed or other.unplayed),
                entered_at=now,
                version=1,
            )
        )
    Board.objects.bulk_create(boards)
    complete_round(go_round)


def _white(place: int, mine: Entry, opponent: int, theirs: Entry, rows: dict[int, PlayerRow]) -> int:
    """White of a game: as the file writes it; unwritten, the higher rank, then the better place."""
    if mine.colour:
        return place if mine.colour == "w" else opponent
    if theirs.colour:
        return opponent if theirs.colour == "w" else place
    mine_rating, theirs_rating = rank_rating(rows[place].rank), rank_rating(rows[opponent].rank)
    if mine_rating != theirs_rating:
        return place if mine_rating > theirs_rating else opponent
    return min(place, opponent)


def _result(white_entry: Entry, *, forfeit: bool) -> str:
    if white_entry.sign == "=":
        return BoardResult.DRAW
    white_won = white_entry.sign == "+"
    if forfeit:
        return BoardResult.WHITE_FORFEIT if white_won else BoardResult.BLACK_FORFEIT
    return BoardResult.WHITE if white_won else BoardResult.BLACK
