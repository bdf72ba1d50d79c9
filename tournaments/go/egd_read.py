"""Reading players and results from files: an EGD results table (the `.h9` family) or a CSV list of players.

An `.h9` table is read as the European Go Database reads it (`rules/go.md`, part 3): everything after ``;`` is a
comment except the ``; XX[value]`` header tags; a player's line is place, surname, first name, rank, country, club,
then any tie-break columns, then one entry a round (``12+/w3``, ``7-/b``, ``5=``, ``0+``, ``0-``, ``0=``), and
an optional ``|PIN`` at the end. The number of rounds is the number of entries most lines end with (a tie-break
column written ``0=`` just before them can make a line look longer; a line with fewer is a problem). What real
files do differently is accepted: a rank without its letter is a kyu rank (``10`` is 10 kyu), ``0=0`` is ``0=``,
``!`` after an entry marks a game not played (a forfeit).

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
_ENTRY = re.compile(r"^(?P<opp>\d+)(?P<sign>[+=-])(?:/(?P<colour>[wb])(?P<stones>\d+)?)?(?P<unplayed>!)?$", re.I)
_FREE = re.compile(r"^0(?P<sign>[+=-])\d*!?$")
_PIN = re.compile(r"^\|(\d+)$")


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
        bool(match.group("unplayed")),
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
    parsed: list[tuple[int, list[str], str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        tag = _TAG.match(raw)
        if tag:
            table.tags.setdefault(tag.group(1), tag.group(2).strip())
            continue
        body = raw.split(";", 1)[0]
        tokens = body.split()
        if not tokens:
            continue
        pin = ""
        if _PIN.match(tokens[-1]):
            pin = tokens.pop()[1:]
        parsed.append((number, tokens, pin))
    if not parsed:
        raise FileProblem(_("No player lines: this is not an EGD results table."))
    counts = [_trailing_entries(tokens) for _, tokens, _pin in parsed]
    rounds = max(sorted(set(counts)), key=counts.count)
    table.rounds = rounds
    for (number, tokens, pin), count in zip(parsed, counts, strict=True):
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
        table.players.append(
            PlayerRow(
                line=number,
                surname=tokens[1].replace("_", " "),
                first_name=tokens[2].replace("_", " ").strip("-"),
                rank=tokens[3],
                country=tokens[4].upper(),
                club=tokens[5].replace("_", " ").strip("-"),
                pin=pin,
                place=int(tokens[0]),
                entries=entries,  # type: ignore[arg-type]
            )
        )
    table.problems.extend(check_games(table))
    return table


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
        for r, e in enumerate(p.entries, start=1):
            if e.opponent == 0:
                continue
            other = by_place.get(e.opponent)
            if other is None or other is p:
                problems.append(
                    _("line %(n)s, round %(r)s: there is no opponent at place %(p)s")
                    % {"n": p.line, "r": r, "p": e.opponent}
                )
                continue
            mine = other.entries[r - 1]
            consistent = (
                mine.opponent == p.place
                and mine.sign == opposite[e.sign]
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
