"""An EGD results table read back as the European Go Database's parser reads it, written apart from the site's own
reader (``tournaments.go.egd_read``) so that each checks the other.

EGD's rules for the file (its "tournament table format" page, and `rules/go.md`, part 3): plain ASCII; everything
after ``;`` is a comment except the header tags; a player's line is place, surname, first name, grade, country,
club, then other columns, then one result a round, the same number of rounds on every line; results are
``<opponent's place><+|-|=>[/<w|b>[<stones>]]`` (``!`` after it: not played) or ``0+``, ``0-``, ``0=``; an
optional ``|PIN`` ends the line (the number of rounds is what most lines end with; a tie-break column of
``0=`` can make one line look longer, never shorter). Since opponents are named by place, places must be unique,
and a game must be written the same way on both sides: the opponent named back, the opposite result, the other
colour, the same stones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GRADE = re.compile(r"^\d{1,2}[kdp]?$", re.IGNORECASE)
RESULT = re.compile(r"^(\d+)([+=-])(?:/([wb])(\d*))?(!?)$", re.IGNORECASE)
FREE = re.compile(r"^0[+=-]\d*$")
TAG = re.compile(r"^;\s*([A-Z]{2})\[([^\]]*)\]")


class Refused(ValueError):
    """What EGD would refuse, with every reason found."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("; ".join(reasons))
        self.reasons = reasons


@dataclass
class Game:
    round: int
    opponent: int  # 0: a free round
    result: str  # "+", "-", "="
    colour: str = ""
    stones: int | None = None
    unplayed: bool = False


@dataclass
class Player:
    place: int
    surname: str
    first_name: str
    grade: str
    country: str
    club: str
    games: list[Game] = field(default_factory=list)

    def points(self) -> dict[str, int]:
        """Games won, lost and drawn, and free rounds won, as EGD counts them from the line."""
        count = {"won": 0, "lost": 0, "drawn": 0, "byes": 0}
        for g in self.games:
            if g.opponent == 0:
                count["byes"] += g.result == "+"
            else:
                count[{"+": "won", "-": "lost", "=": "drawn"}[g.result]] += 1
        return count


@dataclass
class Read:
    tags: dict[str, str]
    players: list[Player]
    rounds: int

    def by_place(self) -> dict[int, Player]:
        return {p.place: p for p in self.players}


def _is_result(token: str) -> bool:
    return bool(FREE.match(token) or (RESULT.match(token) and not token.startswith("0")))


def validate(text: str | bytes) -> Read:
    """The table as EGD reads it; ``Refused`` with every reason when EGD would refuse it."""
    reasons: list[str] = []
    if isinstance(text, bytes):
        try:
            text = text.decode("ascii")
        except UnicodeDecodeError:
            raise Refused(["the file is not plain ASCII"]) from None
    if not text.isascii():
        reasons.append("the file is not plain ASCII")
    tags: dict[str, str] = {}
    lines: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        tag = TAG.match(stripped)
        if tag:
            tags[tag.group(1)] = tag.group(2)
            continue
        tokens = stripped.split(";")[0].split()
        if tokens and tokens[-1].startswith("|"):
            tokens.pop()
        if tokens:
            lines.append((number, tokens))
    if not lines:
        raise Refused(["no player lines"])
    counts = []
    for _number, tokens in lines:
        k = 0
        while k < len(tokens) and _is_result(tokens[-1 - k]):
            k += 1
        counts.append(k)
    # Most lines end with exactly the rounds; a line may show more result-shaped tokens (a tie-break column of
    # "0=" just before the rounds), never fewer.
    rounds = max(sorted(set(counts)), key=counts.count)
    short = [number for (number, _tokens), k in zip(lines, counts, strict=True) if k < rounds]
    if short:
        reasons.append(f"lines {short} end with fewer results than the {rounds} rounds of the others")
    players: list[Player] = []
    for (number, tokens), count in zip(lines, counts, strict=True):
        if count < rounds:
            continue
        if len(tokens) < 6 + rounds:
            reasons.append(f"line {number}: too few fields")
            continue
        place, surname, first, grade, country, club = tokens[:6]
        if not place.isdigit():
            reasons.append(f"line {number}: place {place!r} is not a number")
            continue
        if not GRADE.match(grade):
            reasons.append(f"line {number}: {grade!r} is not a grade (are the two name fields there?)")
            continue
        if not re.fullmatch(r"[A-Za-z]{2}", country):
            reasons.append(f"line {number}: {country!r} is not a country code")
        player = Player(int(place), surname, first, grade, country, club)
        for r, token in enumerate(tokens[len(tokens) - rounds :], start=1):
            if FREE.match(token):
                player.games.append(Game(r, 0, token[1]))
                continue
            m = RESULT.match(token)
            stones = int(m.group(4)) if m.group(4) else (0 if m.group(3) else None)
            player.games.append(
                Game(r, int(m.group(1)), m.group(2), (m.group(3) or "").lower(), stones, bool(m.group(5)))
            )
        players.append(player)
    places = [p.place for p in players]
    shared = sorted({p for p in places if places.count(p) > 1})
    if shared:
        reasons.append(f"places {shared} are shared: opponents named by place are ambiguous")
    read = Read(tags, players, rounds)
    by_place = read.by_place()
    back = {"+": "-", "-": "+", "=": "="}
    for p in players:
        for g in p.games:
            if g.opponent == 0:
                continue
            other = by_place.get(g.opponent)
            if other is None:
                reasons.append(f"place {p.place}, round {g.round}: no player at place {g.opponent}")
                continue
            o = other.games[g.round - 1]
            if o.opponent != p.place or o.result != back[g.result]:
                reasons.append(f"place {p.place}, round {g.round}: place {g.opponent} writes the game otherwise")
            elif g.colour and o.colour and g.colour == o.colour:
                reasons.append(f"place {p.place}, round {g.round}: both sides have the same colour")
            elif g.stones is not None and o.stones is not None and g.stones != o.stones:
                reasons.append(f"place {p.place}, round {g.round}: the two sides give different stones")
            elif g.unplayed != o.unplayed:
                reasons.append(f"place {p.place}, round {g.round}: only one side marks the game not played")
    if reasons:
        raise Refused(reasons)
    return read
