"""The EGD results table of a finished tournament (`rules/go.md`, part 3): a pure function over the replayed state.

The `.h9` family: header lines ``; CL[..]``, ``; EV[..]``, ``; PC[country,city]``, ``; DT[start,end]``,
``; HA[h9]``, ``; KM[..]``, ``; TM[..]``, ``; CM[..]``, then one line a player in the order of the standings:
place, surname, first name, rank, country, club, the tie-break columns (final level, and the Buchholz analogue
when the tournament uses it), then one entry a round, ``<opponent's place><+|-|=>/<b|w><stones>``; ``0+`` for a
bye and ``0-`` for a round not played.

As part 3 says precisely: the surname and the first name are two fields, each with its inner spaces written as
``_``; places are unique (players level on every tie-break take consecutive places in the standings' order, since
opponents are named by place); the file is plain ASCII, names, clubs and cities transliterated to Latin letters
(``federation.latin``); the class is the director's.

Decisions where part 3 is silent: columns are separated by spaces and aligned (EGD reads whitespace-separated
columns); an even game is written with 0 stones (``/w0``); half-stone handicaps are written as their stone count
and the scheme is noted in ``CM``; a win by forfeit is written as the win and loss it counts as, marked ``!`` on
both sides (EGD's mark of a game not played, which it does not rate); a player with no first name on the site has
``-`` in that field, so the rank stays the fourth field; an empty club or city is ``-``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from federation.latin import to_ascii
from tournaments.pairing import Standing, TournamentState

#: Characters that would end or split an EGD field or header value; dropped from every value written.
_UNSAFE = str.maketrans("", "", "[];|!")


@dataclass(frozen=True)
class EgdPlayer:
    surname: str
    first_name: str
    rank: str  # "5k", "2d"
    country: str
    club: str
    forfeits: frozenset[int] = frozenset()  # rounds this player's game was decided by forfeit


@dataclass(frozen=True)
class EgdMeta:
    name: str
    country: str
    city: str
    start: str
    end: str
    komi: float
    time_minutes: int
    egd_class: str
    system: str = ""


def field(text: str, default: str = "-") -> str:
    """One whitespace-free ASCII field: transliterated, inner spaces as ``_`` (``van_der_Berg``)."""
    cleaned = "_".join(to_ascii(text).translate(_UNSAFE).split())
    return cleaned or default


def header(text: str) -> str:
    """A header value: ASCII, on one line, without the brackets that would end it."""
    return " ".join(to_ascii(text).translate(_UNSAFE).split())


def entry(opponent_place: int, result: str, colour: str, stones: int, *, forfeit: bool = False) -> str:
    """One round of a player's line: ``12+/w3``; ``result`` is win, loss or draw."""
    sign = {"win": "+", "loss": "-"}.get(result, "=")
    return f"{opponent_place}{sign}/{'w' if colour == 'white' else 'b'}{stones}{'!' if forfeit else ''}"


def egd_table(
    *,
    state: TournamentState,
    standings: Sequence[Standing],
    players: Mapping[str, EgdPlayer],
    meta: EgdMeta,
) -> str:
    options = state.options
    place = {s.player: k for k, s in enumerate(standings, start=1)}
    scheme = (
        "half-stone levels: d even -> d/2 stones and reverse komi, d odd -> (d+1)/2 stones and no komi; "
        "the stone count is written per game"
        if options.half_stone
        else "one-stone levels: d stones, no komi"
    )
    accel = "acceleration on" if options.acceleration else "acceleration off"
    lines = [
        f"; CL[{header(meta.egd_class)}]",
        f"; EV[{header(meta.name)}]",
        f"; PC[{header(meta.country)},{header(meta.city) or '-'}]",
        f"; DT[{meta.start},{meta.end}]",
        "; HA[h9]",
        f"; KM[{meta.komi:g}]",
        f"; TM[{meta.time_minutes}]",
        f"; CM[{header(meta.system)} self-handicap tournament, {accel}; {scheme}; "
        "tie-break: final level, then the sum of (opponent's final level - own) - (the same before the game)]",
        ";",
    ]
    head = ["Pl", "Surname", "Name", "Rk", "Co", "Club", "Lv"]
    if options.tiebreak:
        head.append("TB")
    head += [str(r) for r in range(1, state.rounds_played + 1)]
    rows = [head]
    for s in standings:
        p = state.player(s.player)
        info = players[s.player]
        row = [
            str(place[s.player]),
            field(info.surname),
            field(info.first_name),
            info.rank,
            field(info.country).upper()[:2],
            field(info.club),
            str(s.level),
        ]
        if options.tiebreak:
            row.append(str(s.tiebreak))
        for e in p.history:
            if e.kind == "bye":
                row.append("0+")
            elif e.kind != "game" or e.opponent is None:
                row.append("0-")
            else:
                forfeit = e.round in info.forfeits
                row.append(entry(place[e.opponent], e.result or "", e.colour or "", e.handicap or 0, forfeit=forfeit))
        rows.append(row)
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(len(head))]
    numeric = {0, 6, 7} if options.tiebreak else {0, 6}
    for k, row in enumerate(rows):
        cells = [cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        text = " ".join(cells).rstrip()
        lines.append(("; " + text) if k == 0 else ("  " + text))
    return "\n".join(lines) + "\n"
