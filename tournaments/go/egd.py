"""The EGD results table of a finished tournament (`rules/go.md`, part 3): a pure function over the replayed state.

The `.h9` family: header lines ``; CL[..]``, ``; EV[..]``, ``; PC[country,city]``, ``; DT[start,end]``,
``; HA[h9]``, ``; KM[..]``, ``; TM[..]``, ``; CM[..]``, then one line a player in the order of the standings:
place, ``Surname_Firstname``, rank, country, club, the tie-break columns (final level, and the Buchholz analogue
when the tournament uses it), then one entry a round, ``<opponent's place><+|-|=>/<b|w><stones>``; ``0+`` for a
bye and ``0-`` for a round not played.

Decisions: columns are separated by spaces and aligned (EGD reads whitespace-separated columns); an even game is
written with 0 stones (``/w0``); half-stone handicaps are written as their stone count and the scheme is noted in
``CM``; a forfeit is written as the win or loss it counts as; a player still sharing a place after every tie-break
gets the same place number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing import Standing, TournamentState


@dataclass(frozen=True)
class EgdPlayer:
    surname: str
    first_name: str
    rank: str  # "5k", "2d"
    country: str
    club: str


@dataclass(frozen=True)
class EgdMeta:
    name: str
    country: str
    city: str
    start: str
    end: str
    komi: float
    time_minutes: int
    egd_class: str = "D"
    system: str = ""


def _token(text: str, default: str = "-") -> str:
    cleaned = "_".join(text.split()).replace("[", "(").replace("]", ")")
    return cleaned or default


def _header(text: str) -> str:
    return text.replace("]", ")").replace("[", "(").replace("\n", " ")


def egd_table(
    *,
    state: TournamentState,
    standings: Sequence[Standing],
    players: Mapping[str, EgdPlayer],
    meta: EgdMeta,
) -> str:
    options = state.options
    place = {s.player: s.place for s in standings}
    scheme = (
        "half-stone levels: d even -> d/2 stones and reverse komi, d odd -> (d+1)/2 stones and no komi; "
        "the stone count is written per game"
        if options.half_stone
        else "one-stone levels: d stones, no komi"
    )
    accel = "acceleration on" if options.acceleration else "acceleration off"
    komi = f"{meta.komi:g}"
    lines = [
        f"; CL[{_header(meta.egd_class)}]",
        f"; EV[{_header(meta.name)}]",
        f"; PC[{_header(meta.country)},{_header(meta.city)}]",
        f"; DT[{meta.start},{meta.end}]",
        "; HA[h9]",
        f"; KM[{komi}]",
        f"; TM[{meta.time_minutes}]",
        f"; CM[{_header(meta.system)} self-handicap tournament, {accel}; {scheme}; "
        "tie-break: final level, then the sum of (opponent's final level - own) - (the same before the game)]",
        ";",
    ]
    head = ["Pl", "Name", "Rk", "Co", "Club", "Lv"]
    if options.tiebreak:
        head.append("TB")
    head += [str(r) for r in range(1, state.rounds_played + 1)]
    rows = [head]
    for s in standings:
        p = state.player(s.player)
        info = players[s.player]
        row = [
            str(s.place),
            f"{_token(info.surname)}_{_token(info.first_name, '')}".rstrip("_"),
            info.rank,
            _token(info.country),
            _token(info.club),
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
                sign = {"win": "+", "loss": "-"}.get(e.result or "", "=")
                colour = "w" if e.colour == "white" else "b"
                row.append(f"{place[e.opponent]}{sign}/{colour}{e.handicap or 0}")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(len(head))]
    numeric = {0, 5, 6} if options.tiebreak else {0, 5}
    for k, row in enumerate(rows):
        cells = []
        for i, cell in enumerate(row):
            cells.append(cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i]))
        text = " ".join(cells).rstrip()
        lines.append(("; " + text) if k == 0 else ("  " + text))
    return "\n".join(lines) + "\n"
