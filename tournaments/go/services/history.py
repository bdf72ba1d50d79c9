"""A finished tournament from its EGD results table (`.h9`): the site's own record of a tournament played
elsewhere or before the site, replayed round by round with the self-handicap rules chosen by the director.

The file gives who played whom in each round, with colour, stones and result; the site gives the levels, standings
and tie-breaks (`rules/go.md`, part 1). Start levels come from the file's ratings where it has them (a ``Rating``
or ``GoR`` column, as the site's own table writes it), else from the ranks. Decisions where the file is silent: a
game without a colour gives white to the higher rating (then the better place); stones not written are 0; the file
carries no komi per game, so a game on the stones the replayed levels call for gets the table's komi, any other
game on stones no komi and an even game normal komi; more than 9 stones is
written as 9, the most a board holds (shown in the preview); ``0+`` is a bye, ``0-`` and ``0=`` are absences (the
rules know no half-point round); a game not played is a forfeit (``!``, or the game written after the line's ``;``
where the line shows ``0+``/``0-``: ``egd``), and both players' same sign is both win or both lose (a double
forfeit when not played); ``withdrawn:N`` after the line's ``;`` is a withdrawal after round N. A file with draws
makes a tournament that allows them. Players are matched against the members as in the player import
(``imports.match_players``).

The preview replays the file exactly as the import will (:func:`history_replay`: the same games, ratings and names)
and says, row by row, where the replay disagrees with the file: a place, a final level (the file's ``Lv``
column), the stones of a game (what the replayed levels before the round give): :func:`history_differences`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.engines.common import EngineError
from tournaments import pairing
from tournaments.models import GoSystem

from ..egd_read import Entry, PlayerRow, Table
from ..models import Absence, Board, BoardResult, Bye, GoTournament, Registration, Round, RoundStatus
from ..selectors import tournament_data, tournament_state
from .common import GoError, log
from .imports import Match, match_players, register_matches, row_rating
from .registrations import go_tournament_create
from .results import complete_round


def history_notes(table: Table) -> list[str]:
    """What the import will change from the file, for the preview: boards above 9 stones, half-point rounds."""
    notes = []
    for p in table.players:
        for r in range(1, table.rounds + 1):
            e = p.entry(r)
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
    if table.players and all(p.rating is None for p in table.players):
        notes.append(_("The file gives no ratings: start levels come from the ranks (a rank is a whole stone)."))
    return notes


def _has_draws(table: Table) -> bool:
    return any(
        p.entry(r).opponent and p.entry(r).sign == "=" for p in table.players for r in range(1, table.rounds + 1)
    )


# --- the file's games, the same for the preview and the import ------------------------------------------------------


@dataclass(frozen=True)
class FileGame:
    """A game of the file: places of white and black, the stones played, the result (a ``BoardResult``)."""

    white: int
    black: int
    stones: int
    result: str


def _rating(row: PlayerRow) -> int:
    """The tournament-scale rating the start level comes from: the file's rating, else the rank's (a DIRS rating r
    is 10 r, `rules/go.md`); below 0 counts as 0 (`rules/go.md`, part 1, Decision)."""
    try:
        return max(row_rating(row, dirs_scale=False) or 0, 0)
    except EngineError:
        return 0


def _white(place: int, mine: Entry, opponent: int, theirs: Entry, rows: dict[int, PlayerRow]) -> int:
    """White of a game: as the file writes it; unwritten, the higher rating, then the better place."""
    if mine.colour:
        return place if mine.colour == "w" else opponent
    if theirs.colour:
        return opponent if theirs.colour == "w" else place
    mine_rating, theirs_rating = _rating(rows[place]), _rating(rows[opponent])
    if mine_rating != theirs_rating:
        return place if mine_rating > theirs_rating else opponent
    return min(place, opponent)


def _result(white: Entry, black: Entry) -> str:
    unplayed = white.unplayed or black.unplayed
    if white.sign == black.sign == "+":
        return BoardResult.BOTH_WIN
    if white.sign == black.sign == "-":
        return BoardResult.DOUBLE_FORFEIT if unplayed else BoardResult.BOTH_LOSE
    if white.sign == "=":
        return BoardResult.DRAW
    if white.sign == "+":
        return BoardResult.WHITE_FORFEIT if unplayed else BoardResult.WHITE
    return BoardResult.BLACK_FORFEIT if unplayed else BoardResult.BLACK


def file_round(table: Table, number: int) -> tuple[list[FileGame], list[int], list[int]]:
    """Round ``number`` of the file: its games (in the order of the better place), the places with a bye and the
    places absent (``0-``, ``0=``; a withdrawn player's rounds after the withdrawal are not absences)."""
    rows = {row.place: row for row in table.players}
    games, byes, absent = [], [], []
    for place in sorted(rows):
        row = rows[place]
        e = row.entry(number)
        if e.opponent == 0:
            if e.sign == "+":
                byes.append(place)
            elif row.withdrawn_after is None or number <= row.withdrawn_after:
                absent.append(place)
            continue
        if e.opponent < place:
            continue
        other = rows[e.opponent].entry(number)
        white = _white(place, e, e.opponent, other, rows)
        black = e.opponent if white == place else place
        white_entry, black_entry = (e, other) if white == place else (other, e)
        stones = e.stones if e.stones is not None else (other.stones or 0)
        games.append(FileGame(white, black, min(stones, pairing.MAX_STONES), _result(white_entry, black_entry)))
    return games, byes, absent


def _game_result(game: FileGame) -> pairing.GameResult:
    white, black = f"p{game.white}", f"p{game.black}"
    board = Board(result=game.result)
    colour = board.winner_colour
    winner = None if colour is None else (white if colour == "white" else black)
    kind = pairing.KOMI_NORMAL if game.stones == 0 else pairing.KOMI_NONE
    return pairing.GameResult(white, black, winner, game.stones, kind, board.both)


def history_options(*, table: Table, half_stone: bool, acceleration: bool, tiebreak: bool) -> pairing.Options:
    return pairing.Options(
        rounds=max(table.rounds, 1),
        half_stone=half_stone,
        acceleration=acceleration,
        draws_allowed=_has_draws(table),
        tiebreak=tiebreak,
    )


def registration_names(matches: list[Match]) -> dict[int, str]:
    """Each place's name as the import will register it: the member chosen for the row, else the file's name."""
    names = {}
    for m in matches:
        chosen = next((c for c in m.candidates if c.id == m.chosen), None)
        names[m.row.place] = chosen.name if chosen is not None else m.row.name
    return names


def history_replay(
    table: Table, *, options: pairing.Options, names: dict[int, str] | None = None
) -> pairing.TournamentState:
    """The file replayed with the engine, as the import will replay it (its players ``p<place>``)."""
    names = names or {}
    absent: dict[int, set[int]] = {row.place: set() for row in table.players}
    rounds: list[list[pairing.GameResult | pairing.ByeResult]] = []
    for number in range(1, table.rounds + 1):
        games, byes, absences = file_round(table, number)
        for place in absences:
            absent[place].add(number)
        for row in table.players:
            if row.withdrawn_after is not None and number > row.withdrawn_after and row.entry(number).opponent == 0:
                absent[row.place].add(number)
        rounds.append([_game_result(g) for g in games] + [pairing.ByeResult(f"p{place}") for place in byes])
    entrants = [
        pairing.Entrant(f"p{row.place}", _rating(row), names.get(row.place, row.name), frozenset(absent[row.place]))
        for row in table.players
    ]
    return pairing.replay(options, entrants, rounds)


def history_differences(table: Table, *, options: pairing.Options, names: dict[int, str] | None = None) -> list[str]:
    """Where the replay disagrees with the file, row by row: places, final levels, the stones of each game."""
    if table.problems or not table.rounds:
        return []
    try:
        state = history_replay(table, options=options, names=names)
    except EngineError as error:
        return [_("The file cannot be replayed: %(why)s") % {"why": error}]
    order = {s.player: k for k, s in enumerate(pairing.standings(state), start=1)}
    rows = {row.place: row for row in table.players}
    out = []
    for row in sorted(table.players, key=lambda r: r.line):
        me = state.player(f"p{row.place}")
        where = _("line %(n)s (%(name)s)") % {"n": row.line, "name": row.name}
        if order[me.id] != row.place:
            out.append(
                _("%(where)s: place %(file)s in the file, %(site)s in the replay")
                % {"where": where, "file": row.place, "site": order[me.id]}
            )
        if row.level is not None and row.level != me.level:
            out.append(
                _("%(where)s: final level %(file)s in the file, %(site)s in the replay")
                % {"where": where, "file": row.level, "site": me.level}
            )
        for e in me.history:
            if e.kind != "game" or e.colour != "white":
                continue
            written = row.entry(e.round).stones
            if written is None:
                written = rows[int(e.opponent[1:])].entry(e.round).stones
            if written is None:
                continue
            gap = (e.level_before - (e.opponent_level_before or 0)) if e.opponent_level_before is not None else 0
            stones, _komi = pairing.playable_handicap(gap, half_stone=options.half_stone)
            if min(written, pairing.MAX_STONES) != stones:
                out.append(
                    _(
                        "%(where)s, round %(r)s: %(file)s stones in the file; the replayed levels (%(w)s and %(b)s) "
                        "give %(site)s"
                    )
                    % {
                        "where": where,
                        "r": e.round,
                        "file": written,
                        "w": e.level_before,
                        "b": e.opponent_level_before,
                        "site": stones,
                    }
                )
    return out


# --- the import -------------------------------------------------------------------------------------------------------


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
    matches = match_players(table.players, go=go)  # ratings as ``_rating`` reads them (``imports.row_rating``)
    registered = register_matches(go=go, matches=matches, choices=choices, user=user, require_all=True)
    by_place = {m.row.place: registered[m.key] for m in matches}
    withdrawn = [(by_place[m.row.place], m.row.withdrawn_after) for m in matches if m.row.withdrawn_after is not None]
    for registration, after in withdrawn:
        registration.withdrawn_after = after
        registration.save(update_fields=["withdrawn_after"])
    for number in range(1, table.rounds + 1):
        _import_round(go, number, table, by_place)
    text = {
        "en": f"imported as history from {filename or 'an EGD table'}: {len(by_place)} players, {table.rounds} rounds",
        "ru": f"импорт истории из {filename or 'таблицы EGD'}: игроков {len(by_place)}, туров {table.rounds}",
    }
    log(go, user, "import_history", text)
    return go


def _import_round(go: GoTournament, number: int, table: Table, regs: dict[int, Registration]) -> None:
    now = timezone.now()
    go_round = Round.objects.create(
        tournament=go, number=number, seed=0, status=RoundStatus.PUBLISHED, paired_at=now, published_at=now
    )
    games, byes, absent = file_round(table, number)
    Absence.objects.bulk_create([Absence(registration=regs[place], round_number=number) for place in absent])
    Bye.objects.bulk_create([Bye(round=go_round, registration=regs[place]) for place in byes])
    state = tournament_state(tournament_data(go=go), number - 1, players_upto=number)
    options = state.options
    boards = []
    for game in games:
        white, black = regs[game.white], regs[game.black]
        white_level, black_level = state.player(white.key).level, state.player(black.key).level
        stones, kind = pairing.playable_handicap(white_level - black_level, half_stone=options.half_stone)
        if stones != game.stones:  # not the table's handicap: the file carries no komi, so the plain one
            kind = pairing.KOMI_NORMAL if game.stones == 0 else pairing.KOMI_NONE
        boards.append(
            Board(
                round=go_round,
                number=len(boards) + 1,
                white=white,
                black=black,
                white_level=white_level,
                black_level=black_level,
                handicap=game.stones,
                komi_kind=kind,
                komi=Decimal(str(options.komi_points(kind))),
                result=game.result,
                entered_at=now,
                version=1,
            )
        )
    Board.objects.bulk_create(boards)
    complete_round(go_round)
