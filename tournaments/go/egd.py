"""The EGD results table of a finished tournament (`rules/go.md`, part 3): a pure function over the replayed state.

The `.h9` family: header lines ``; CL[..]``, ``; EV[..]``, ``; PC[country,city]``, ``; DT[start,end]``,
``; HA[h9]``, ``; KM[..]``, ``; TM[..]``, ``; CM[..]``, then one line a player in the order of the standings:
place, surname, first name, rank, country, club, the player's rating (the tournament scale the start level came
from), the tie-break columns (final level, and the Buchholz analogue when the tournament uses it), then one entry a
round, ``<opponent's place><+|-|=>/<b|w><stones>``; ``0+`` for a bye and ``0-`` for a round not played; the
player's EGD PIN as ``|PIN`` where the site knows it.

As part 3 says precisely: the surname and the first name are two fields, each with its inner spaces written as
``_``; places are unique (players level on every tie-break take consecutive places in the standings' order, since
opponents are named by place); the file is plain ASCII, names, clubs and cities transliterated to Latin letters
(``federation.latin``); the class is the director's.

**A game not played** (a forfeit, or a double forfeit) is written as EGF's format writes a round without a game
(part 3): ``0+`` for the player awarded the point, ``0-`` for the other. Of the two notations issue 27 weighed,
this is the one EGF's published format has (``<opponent's place><symbol>[/<colour>[<h>]]`` knows no mark for a
forfeit; ``0+``/``0-`` are its free rounds), so every EGD parser reads it, EGD rates nothing that was not played,
and the points stay where the tournament gave them; a mark right after the sign (``13+!/w3``, as OpenGotha writes
it) is read by some parsers only. **The special results** (both win, both lose) have no single winner for EGD to
rate either: each player's round is written as the free round it counts as, ``0+`` for a win and ``0-`` for a
loss. So that the site can read its own file back as the same tournament (``egd_read``, the history import), each
such round is also written after the line's ``;`` (a comment to EGD) as the game it was, with the mark after the
sign: ``r3:13+!/w3`` (round 3 against place 13, won by forfeit, white, 3 stones), ``r4:5-/b0`` (both lost);
``withdrawn:2`` says the player withdrew after round 2 (the rounds after it read ``0-``).

Decisions where part 3 is silent: columns are separated by spaces and aligned (EGD reads whitespace-separated
columns); an even game is written with 0 stones (``/w0``); half-stone handicaps are written as their stone count
and the scheme is noted in ``CM``; a player with no first name on the site has ``-`` in that field, so the rank
stays the fourth field; an empty club or city is ``-``; the rating column is headed ``Rating`` on the header line
``; Pl Surname Name Rk Co Club Rating Lv TB 1 2 ...``, which EGD ignores as a comment and the site's reader uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from federation.latin import to_ascii
from tournaments.pairing import Standing, TournamentState

#: Characters that would end or split an EGD field or header value; dropped from every value written.
_UNSAFE = str.maketrans("", "", "[];|!")
#: A player's round that is not a game EGD rates: ``forfeit`` (one side did not play), ``double_forfeit``,
#: ``both`` (both win or both lose).
UNPLAYED_KINDS = ("forfeit", "double_forfeit", "both")


@dataclass(frozen=True)
class EgdPlayer:
    surname: str
    first_name: str
    rank: str  # "5k", "2d"
    country: str
    club: str
    unrated: Mapping[int, str] = dataclass_field(default_factory=dict)  # round -> one of UNPLAYED_KINDS
    rating: int | None = None  # on the tournament scale
    pin: str = ""
    withdrawn_after: int | None = None


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


def entry(opponent_place: int, result: str, colour: str, stones: int, *, unplayed: bool = False) -> str:
    """One round of a player's line: ``12+/w3``; ``result`` is win, loss or draw. ``unplayed``: the mark of a game
    not played, right after the sign (``12+!/w3``), for the line's comment only (see the module)."""
    sign = {"win": "+", "loss": "-"}.get(result, "=")
    return f"{opponent_place}{sign}{'!' if unplayed else ''}/{'w' if colour == 'white' else 'b'}{stones}"


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
    tiebreak = (
        "tie-break: final level, then the sum of (opponent's final level - own) - (the same before the game)"
        if options.tiebreak
        else "no tie-break: final level, then the start rating"
    )
    lines = [
        f"; CL[{header(meta.egd_class)}]",
        f"; EV[{header(meta.name)}]",
        f"; PC[{header(meta.country)},{header(meta.city) or '-'}]",
        f"; DT[{meta.start},{meta.end}]",
        "; HA[h9]",
        f"; KM[{meta.komi:g}]",
        f"; TM[{meta.time_minutes}]",
        f"; CM[{header(meta.system)} self-handicap tournament, {accel}; {scheme}; {tiebreak}]",
        "; Games not played (forfeits) and results for both players are written 0+ (a win) and 0- (a loss), as EGF",
        "; writes a round without a game; after a line's ';' each is given as played: r<round>:<game>, ! not played.",
        ";",
    ]
    head = ["Pl", "Surname", "Name", "Rk", "Co", "Club", "Rating", "Lv"]
    if options.tiebreak:
        head.append("TB")
    head += [str(r) for r in range(1, state.rounds_played + 1)]
    rows = [head]
    tails = [""]
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
            str(info.rating if info.rating is not None else int(p.rating)),
            str(s.level),
        ]
        if options.tiebreak:
            row.append(str(s.tiebreak))
        notes = []
        for e in p.history:
            if e.kind == "bye":
                row.append("0+")
            elif e.kind != "game" or e.opponent is None:
                row.append("0-")
            elif e.round in info.unrated:
                row.append("0+" if e.result == "win" else "0-")
                unplayed = info.unrated[e.round] != "both"
                game = entry(place[e.opponent], e.result or "", e.colour or "", e.handicap or 0, unplayed=unplayed)
                notes.append(f"r{e.round}:{game}")
            else:
                row.append(entry(place[e.opponent], e.result or "", e.colour or "", e.handicap or 0))
        if info.withdrawn_after is not None:
            notes.append(f"withdrawn:{info.withdrawn_after}")
        rows.append(row)
        pin = f" |{info.pin}" if info.pin.isdigit() else ""
        tails.append(pin + (f" ; {' '.join(notes)}" if notes else ""))
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(len(head))]
    numeric = {0, 6, 7, 8} if options.tiebreak else {0, 6, 7}
    for k, row in enumerate(rows):
        cells = [cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        text = " ".join(cells).rstrip() + tails[k]
        lines.append(("; " + text) if k == 0 else ("  " + text))
    return "\n".join(lines) + "\n"
