"""Reading players and results from files: an EGD results table (the `.h9` family) or a CSV list of players.

An `.h9` table is read as the European Go Database reads it (`rules/go.md`, part 3): everything after ``;`` is a
comment except the ``; XX[value]`` header tags; a player's line is place, surname, first name, rank, country, club,
then any tie-break columns, then one entry a round (``12+/w3``, ``7-/b``, ``5=``, ``0+``, ``0-``, ``0=``), and
an optional ``|PIN`` at the end. The number of rounds is the number of entries most lines end with (a tie-break
column written ``0=`` just before them can make a line look longer; a line with fewer is a problem). What real
files do differently is accepted: a rank without its letter is a kyu rank (``10`` is 10 kyu), ``0=0`` is ``0=``,
and a game not played (a forfeit) marked ``!`` either right after the sign (``13+!/w3``, or OpenGotha's ``13+!w3``)
or after the whole entry (``13+/w3!``, as this site wrote it before).

Beyond what EGD reads, so that a table comes back as the same tournament (``egd``, the history import): the header
line of column names (``; Pl Surname Name Rk Co Club Rating Lv TB 1 2 ...``, a comment to EGD) names the columns
between the club and the rounds; a ``Rating`` (or ``GoR``) column gives each player's rating, from which the
start level comes (else from the rank), and ``Lv`` the final level the file's author computed; after a player's
``;``, ``r3:13+!/w3`` is round 3's game as played where the line shows the free round it counts as (a forfeit,
both win, both lose), and ``withdrawn:2`` the round after which the player withdrew.

Problems are collected with their line numbers, so the director sees every one at once; nothing is saved from a
file with problems.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ratings.engines import dirs
from ratings.engines.common import EngineError, FieldError

_TAG = re.compile(r"^\s*;\s*([A-Z]{2})\[([^\]]*)\]")
_RANK = re.compile(r"^(\d{1,2})([kdp]?)$", re.IGNORECASE)
_ENTRY = re.compile(
    r"^(?P<opp>\d+)(?P<sign>[+=-])(?:(?P<mark>!)/?|/)?(?:(?P<colour>[wb])(?P<stones>\d+)?)?(?P<unplayed>!)?$", re.I
)
_FREE = re.compile(r"^0(?P<sign>[+=-])\d*!?$")
_PIN = re.compile(r"^\|(\d+)$")
_PLAYED = re.compile(r"^r(\d+):(\S+)$")
_WITHDRAWN = re.compile(r"^withdrawn:(\d+)$")
#: Column names of a rating and of a final level (lower case) on the header line of column names.
RATING_COLUMNS = ("rating", "gor", "rt")
LEVEL_COLUMNS = ("lv", "level")


class FileProblem(FieldError):
    """A file that cannot be read at all (not text, no players): ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__("file", message)


@dataclass(frozen=True)
class Entry:
    """One round of a player's line: a game against the player at place ``opponent``, or (``opponent`` 0) a free
    round: ``+`` a bye, ``-`` not played, ``=`` a half-point free round."""

    opponent: int
    sign: str
    colour: str = ""  # "w", "b" or "" (not given)
    stones: int | None = None
    unplayed: bool = False


@dataclass(frozen=True)
class PlayerRow:
    """A player read from a file, whatever its format: names, rank or rating, country, club, EGD PIN."""

    line: int
    surname: str
    first_name: str
    rank: str = ""
    rating: int | None = None
    country: str = ""
    club: str = ""
    pin: str = ""
    place: int = 0
    entries: tuple[Entry, ...] = ()
    level: int | None = None  # the final level the file gives (its ``Lv`` column)
    played: tuple[tuple[int, Entry], ...] = ()  # (round, the game as played) where the line shows a free round
    withdrawn_after: int | None = None

    def entry(self, round_number: int) -> Entry:
        """The round as it was: the game given after ``;`` where there is one, else the line's entry."""
        for number, game in self.played:
            if number == round_number:
                return game
        return self.entries[round_number - 1]

    @property
    def name(self) -> str:
        return " ".join(part for part in (self.surname, self.first_name) if part)


@dataclass
class Table:
    """What a file gave: its header tags (``EV``, ``DT``, ...), its players, its rounds, and the problems found."""

    tags: dict[str, str] = field(default_factory=dict)
    players: list[PlayerRow] = field(default_factory=list)
    rounds: int = 0
    problems: list[str] = field(default_factory=list)


def decode(content: bytes) -> str:
    """Text of an uploaded file: UTF-8 (with or without its mark), else Windows-1251 (a Russian spreadsheet's CSV)."""
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise FileProblem(_("The file is not text (UTF-8 or Windows-1251)."))


def rank_rating(rank: str) -> int:
    """A rank on the DIRS scale (`rules/go.md`, newcomers: k kyu -> (21 - k) * 10, n dan -> (20 + n) * 10).

    A rank without its letter is kyu, as real EGD files write it; professional ranks have no place on the scale.
    """
    match = _RANK.match(rank.strip())
    if not match:
        raise EngineError("rank", _("%(rank)s is not a rank such as 5k or 2d") % {"rank": rank})
    number, letter = int(match.group(1)), match.group(2).lower()
    if letter == "p":
        raise EngineError("rank", _("%(rank)s is a professional rank: type a rating instead") % {"rank": rank})
    try:
        return dirs.rating_from_rank(number, dirs.DAN if letter == "d" else dirs.KYU)
    except EngineError as error:
        raise EngineError("rank", _("%(rank)s is not a rank such as 5k or 2d") % {"rank": rank}) from error


def _entry(token: str) -> Entry | None:
    free = _FREE.match(token)
    if free:
        return Entry(0, free.group("sign"))
    match = _ENTRY.match(token)
    if not match or match.group("opp") == "0":
        return None
    stones = match.group("stones")
    return Entry(
        int(match.group("opp")),
        match.group("sign"),
        (match.group("colour") or "").lower(),
        int(stones) if stones is not None else None,
        bool(match.group("unplayed") or match.group("mark")),
    )


def _trailing_entries(tokens: list[str]) -> int:
    count = 0
    for token in reversed(tokens):
        if _entry(token) is None:
            break
        count += 1
    return count


def read_h9(text: str) -> Table:
    """Players and results of an EGD results table, with every problem an EGD parser would refuse."""
    table = Table()
    parsed: list[tuple[int, list[str], str, str]] = []
    columns: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        tag = _TAG.match(raw)
        if tag:
            table.tags.setdefault(tag.group(1), tag.group(2).strip())
            continue
        body, _semicolon, comment = raw.partition(";")
        tokens = body.split()
        if not tokens:
            names = comment.split()
            if names and names[0].lower() == "pl" and not columns:
                columns = names
            continue
        pin = ""
        if _PIN.match(tokens[-1]):
            pin = tokens.pop()[1:]
        parsed.append((number, tokens, pin, comment))
    if not parsed:
        raise FileProblem(_("No player lines: this is not an EGD results table."))
    counts = [_trailing_entries(tokens) for _, tokens, _pin, _comment in parsed]
    rounds = max(sorted(set(counts)), key=counts.count)
    table.rounds = rounds
    extra = _extra_columns(columns)
    for (number, tokens, pin, comment), count in zip(parsed, counts, strict=True):
        where = _("line %(n)s") % {"n": number}
        if count < rounds:
            table.problems.append(
                _("%(where)s: %(k)s results where the other lines have %(r)s rounds")
                % {"where": where, "k": count, "r": rounds}
            )
            continue
        if len(tokens) < 6 + rounds:
            table.problems.append(
                _("%(where)s: expected place, surname, first name, rank, country, club and %(r)s rounds")
                % {"where": where, "r": rounds}
            )
            continue
        if not tokens[0].isdigit():
            table.problems.append(_("%(where)s: the place %(v)s is not a number") % {"where": where, "v": tokens[0]})
            continue
        if not _RANK.match(tokens[3]):
            table.problems.append(
                _(
                    "%(where)s: the fourth field %(v)s is not a rank: the surname and the first name must be two "
                    "fields (inner spaces written as _)"
                )
                % {"where": where, "v": tokens[3]}
            )
            continue
        entries = tuple(_entry(t) for t in tokens[len(tokens) - rounds :]) if rounds else ()
        values = dict(zip(extra, tokens[6 : len(tokens) - rounds], strict=False))
        if len(tokens) - rounds - 6 != len(extra):
            values = {}  # the columns do not line up with the header's names: read neither
        numbers = {}
        for key, names in (("rating", RATING_COLUMNS), ("level", LEVEL_COLUMNS)):
            found = next((values[n] for n in names if n in values), None)
            if found is None:
                continue
            if not re.fullmatch(r"-?\d{1,6}", found):
                message = (
                    _("%(where)s: the rating %(v)s is not a whole number")
                    if key == "rating"
                    else _("%(where)s: the level %(v)s is not a whole number")
                )
                table.problems.append(message % {"where": where, "v": found})
                continue
            numbers[key] = int(found)
        played, withdrawn, problems = _comment(comment, rounds, where)
        table.problems.extend(problems)
        table.players.append(
            PlayerRow(
                line=number,
                surname=tokens[1].replace("_", " "),
                first_name=tokens[2].replace("_", " ").strip("-"),
                rank=tokens[3],
                rating=numbers.get("rating"),
                country=tokens[4].upper(),
                club=tokens[5].replace("_", " ").strip("-"),
                pin=pin,
                place=int(tokens[0]),
                entries=entries,  # type: ignore[arg-type]
                level=numbers.get("level"),
                played=played,
                withdrawn_after=withdrawn,
            )
        )
    table.problems.extend(check_games(table))
    return table


def _extra_columns(columns: list[str]) -> list[str]:
    """The names of the columns between the club and the rounds on the header line (lower case), or none."""
    lowered = [c.lower() for c in columns]
    if "club" not in lowered:
        return []
    names = lowered[lowered.index("club") + 1 :]
    while names and names[-1].isdigit():
        names.pop()
    return names


def _comment(comment: str, rounds: int, where: str) -> tuple[tuple[tuple[int, Entry], ...], int | None, list[str]]:
    """The games as played (``r3:13+!/w3``) and the withdrawal (``withdrawn:2``) after a player's ``;``."""
    played: list[tuple[int, Entry]] = []
    withdrawn = None
    problems = []
    for token in comment.split():
        game = _PLAYED.match(token)
        if game:
            number, entry = int(game.group(1)), _entry(game.group(2))
            if not 1 <= number <= rounds or entry is None or entry.opponent == 0:
                problems.append(
                    _("%(where)s: %(v)s is not a game of one of the %(r)s rounds")
                    % {"where": where, "v": token, "r": rounds}
                )
            else:
                played.append((number, entry))
            continue
        out = _WITHDRAWN.match(token)
        if out and 0 <= int(out.group(1)) <= rounds:
            withdrawn = int(out.group(1))
    return tuple(played), withdrawn, problems


def check_games(table: Table) -> list[str]:
    """Unique places, opponents that exist, and every game written the same on both sides (sign, colour, stones)."""
    problems = []
    by_place: dict[int, PlayerRow] = {}
    for p in table.players:
        if p.place in by_place:
            problems.append(
                _("line %(n)s: place %(p)s is also on line %(m)s: places must be unique (opponents are named by place)")
                % {"n": p.line, "p": p.place, "m": by_place[p.place].line}
            )
        else:
            by_place[p.place] = p
    opposite = {"+": "-", "-": "+", "=": "="}
    for p in table.players:
        given = dict(p.played)
        for r in range(1, len(p.entries) + 1):
            e = p.entry(r)
            if r in given and (p.entries[r - 1].opponent != 0 or p.entries[r - 1].sign != e.sign):
                problems.append(
                    _("line %(n)s, round %(r)s: the game after ';' is not the free round the line gives for it")
                    % {"n": p.line, "r": r}
                )
                continue
            if e.opponent == 0:
                continue
            other = by_place.get(e.opponent)
            if other is None or other is p:
                problems.append(
                    _("line %(n)s, round %(r)s: there is no opponent at place %(p)s")
                    % {"n": p.line, "r": r, "p": e.opponent}
                )
                continue
            mine = other.entry(r)
            # Both win or both lose: written after ';' on both lines with the same sign (see the module).
            both = r in given and r in dict(other.played) and e.sign == mine.sign and e.sign in "+-"
            consistent = (
                mine.opponent == p.place
                and (mine.sign == opposite[e.sign] or both)
                and (not e.colour or not mine.colour or e.colour != mine.colour)
                and (e.stones is None or mine.stones is None or e.stones == mine.stones)
            )
            if not consistent:
                problems.append(
                    _("line %(n)s, round %(r)s: the game with place %(p)s is written differently on line %(m)s")
                    % {"n": p.line, "r": r, "p": e.opponent, "m": other.line}
                )
    return problems


# --- CSV ----------------------------------------------------------------------------------------------------------

#: Column names a CSV list of players may use (lower case), in English or Russian.
COLUMNS = {
    "surname": ("surname", "last_name", "last name", "family name", "фамилия"),
    "first_name": ("first_name", "first name", "name", "given name", "имя"),
    "rank": ("rank", "grade", "разряд", "ранг", "сила"),
    "rating": ("rating", "рейтинг"),
    "country": ("country", "страна"),
    "club": ("club", "клуб"),
    "pin": ("egd_pin", "pin", "egd pin", "egd", "пин"),
}


def read_csv(text: str) -> Table:
    """Players from a CSV with a header row (comma or semicolon): surname and first name, a rank or a rating."""
    table = Table()
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:  # newline="": the csv module splits \r\n, \n and a lone \r itself
        rows = list(csv.reader(io.StringIO(text, newline=""), dialect))
    except csv.Error as error:
        raise FileProblem(_("The file cannot be read as CSV (%(reason)s).") % {"reason": error}) from None
    if not rows:
        raise FileProblem(_("The file is empty."))
    header = [h.strip().lower() for h in rows[0]]
    index = {}
    for key, names in COLUMNS.items():
        for k, h in enumerate(header):
            if h in names:
                index[key] = k
                break
    if "surname" not in index or ("rank" not in index and "rating" not in index):
        raise FileProblem(
            _("The first row must name the columns: surname, first_name, rank or rating (country, club, egd_pin).")
        )
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue

        def cell(key: str, row=row) -> str:
            k = index.get(key)
            return row[k].strip() if k is not None and k < len(row) else ""

        rating_text = cell("rating")
        rating = None
        if rating_text:
            if not rating_text.lstrip("-").isdigit():
                table.problems.append(
                    _("line %(n)s: the rating %(v)s is not a whole number") % {"n": number, "v": rating_text}
                )
                continue
            rating = int(rating_text)
        if not cell("surname"):
            table.problems.append(_("line %(n)s: no surname") % {"n": number})
            continue
        table.players.append(
            PlayerRow(
                line=number,
                surname=cell("surname"),
                first_name=cell("first_name"),
                rank=cell("rank"),
                rating=rating,
                country=cell("country").upper(),
                club=cell("club"),
                pin=cell("pin"),
            )
        )
    if not table.players and not table.problems:
        raise FileProblem(_("The file has no players."))
    return table


def read_players(content: bytes, filename: str) -> Table:
    """A file of players: an `.h9` results table, or a CSV list (by the name's ending)."""
    text = decode(content)
    if filename.lower().endswith((".h9", ".h", ".txt")) or text.lstrip().startswith(";"):
        return read_h9(text)
    return read_csv(text)
