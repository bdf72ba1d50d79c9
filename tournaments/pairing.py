"""Self-handicap Go tournaments (PROFS / FUS): levels, handicaps, standings and the next round's pairing.

The rules are `rules/go.md`, part 1; this module is their executable form. It imports nothing from Django: the
tournament services turn registrations, rounds and results into the plain dataclasses below, call :func:`replay`,
:func:`standings` and :func:`pair_round`, and store what comes back. ``manage.py rate`` calls :func:`rate_document`.

Decisions taken here where `rules/go.md` is silent (the rules' own Decisions are followed as written):

- **9 stones as a level gap.** A game may be played on at most 9 stones, so the largest level gap that may be
  paired is 18 in half-stone mode (18 -> 9 stones and reverse komi; 19 would need 10 stones) and 9 in one-stone mode.
- **Absence ends a winning streak.** The rules make only the bye neutral for a streak (it is not the player's
  choice); a round the player chose to sit out interrupts the series of wins, so nobody banks a streak by skipping.
  An absent round changes no level and adds nothing to the tie-break.
- **"Had white more often"** compares the number of games each player had white so far.
- **The colour draw** at equal levels and equal white counts is a coin derived from the round's seed, the round
  number and the two ids, so it does not depend on board order and re-pairing the round gives the same colours. When
  no seed is given the seed is derived from the round number and the present players' ids (so ``manage.py rate``
  is reproducible); the site should draw a random seed once and store it with the round.
- **Byes when the field cannot be paired legally.** The number of games is maximised first (a game is the point of a
  round); among the players who could be left over, byes go to those with the fewest byes so far and, among them,
  to the lowest-ranked (a matroid greedy, so it is the best choice in that order). A second bye while another
  present player has had none is then reported as an issue, not avoided at the cost of a game.
- **Tie-break off** (an option for PROFS) drops only the Buchholz analogue: equal levels are still ordered by start
  rating and then share the place, as the pairing ranks them; the tie-break column is then ``None``.
- **Draws** are written as a game whose ``winner`` is ``None`` (``null`` in JSON).
- **Board order**: board 1 is the top-ranked player's game, and so on down the field.
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_right
from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from ratings.engines.common import EngineError, Explanation

KOMI_NORMAL = "normal"
KOMI_NONE = "none"
KOMI_REVERSE = "reverse"
KOMI_KINDS = (KOMI_NORMAL, KOMI_NONE, KOMI_REVERSE)

#: Rules codes of :class:`PairingIssue`.
RULE_REMATCH = "rematch"
RULE_HANDICAP_LIMIT = "handicap_limit"
RULE_COLOUR = "colour"
RULE_HANDICAP = "handicap"
RULE_ABSENT = "absent"
RULE_UNPAIRED = "unpaired"
RULE_BYE_REPEAT = "bye_repeat"
RULE_BYE_EXTRA = "bye_extra"
RULE_FIELD_UNPAIRABLE = "field_unpairable"

MAX_STONES = 9


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------------------------------------------
# Options and the per-game arithmetic
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """A tournament's settings; every combination is allowed (`rules/go.md`, part 1, the options table).

    PROFS is ``half_stone=False, acceleration=False``; FUS is ``half_stone=True, acceleration=True`` with the
    tie-break. Komi amounts are in points: normal komi to white, "no komi" to white (0.5, so no jigo), reverse komi
    to black.
    """

    rounds: int
    half_stone: bool = False
    acceleration: bool = False
    draws_allowed: bool = False
    tiebreak: bool = True
    komi_normal: float = 6.5
    komi_none: float = 0.5
    komi_reverse: float = 6.5

    def __post_init__(self) -> None:
        if not _is_whole(self.rounds) or self.rounds < 1:
            raise EngineError("options.rounds", f"{self.rounds!r} is not a whole number of rounds of at least 1")
        for name in ("half_stone", "acceleration", "draws_allowed", "tiebreak"):
            if not isinstance(getattr(self, name), bool):
                raise EngineError(f"options.{name}", f"{getattr(self, name)!r} is not true or false")
        for name in ("komi_normal", "komi_none", "komi_reverse"):
            value = getattr(self, name)
            if not _is_number(value) or value < 0:
                raise EngineError(f"options.{name}", f"{value!r} is not a number of points >= 0")

    @classmethod
    def fus(cls, rounds: int, **changes: Any) -> Options:
        """FUS: half-stone step, acceleration and the tie-break."""
        return cls(rounds=rounds, half_stone=True, acceleration=True, tiebreak=True, **changes)

    @classmethod
    def profs(cls, rounds: int, **changes: Any) -> Options:
        """PROFS: one-stone step, a win is worth 1."""
        return cls(rounds=rounds, half_stone=False, acceleration=False, **changes)

    @property
    def max_level_gap(self) -> int:
        return max_level_gap(half_stone=self.half_stone)

    def komi_points(self, kind: str) -> float:
        """The komi amount of a komi kind, always positive; ``reverse`` is paid to black."""
        return {KOMI_NORMAL: self.komi_normal, KOMI_NONE: self.komi_none, KOMI_REVERSE: self.komi_reverse}[kind]


def start_level(rating: float, *, half_stone: bool) -> int:
    """Start points from a tournament-scale rating.

    `rules/go.md`, part 1, options table: one stone ``rating // 100``, half a stone ``rating * 2 // 100``;
    Decision: a rating below 0 counts as 0, so ``//`` and the seed's truncation toward zero agree.
    """
    rating = max(rating, 0)
    return int(rating * 2 // 100) if half_stone else int(rating // 100)


def win_points(streak: int, round_number: int, rounds: int, *, acceleration: bool) -> int:
    """Points of a win; ``streak`` is the winning streak with this win included.

    `rules/go.md`, part 1, "acceleration": the streak length, but at most ``rounds left after this one + 1``,
    i.e. ``min(streak, rounds - round_number + 1)``; without acceleration a win is worth 1.
    """
    if not acceleration:
        return 1
    return max(1, min(streak, rounds - round_number + 1))


def handicap_for(level_gap: int, *, half_stone: bool) -> tuple[int, str]:
    """Stones and komi kind for a level difference (its sign is ignored).

    `rules/go.md`, part 1, "Handicap and komi": d = 0 is an even game with normal komi; half-stone mode gives
    ``d / 2`` stones with reverse komi for even d and ``(d + 1) / 2`` stones with no komi for odd d; one-stone mode
    gives ``d`` stones, no komi. One stone means black moves first with nothing placed.
    """
    d = abs(level_gap)
    if d == 0:
        return 0, KOMI_NORMAL
    if not half_stone:
        return d, KOMI_NONE
    if d % 2 == 0:
        return d // 2, KOMI_REVERSE
    return (d + 1) // 2, KOMI_NONE


def max_level_gap(*, half_stone: bool) -> int:
    """The largest level gap that stays within 9 stones (`rules/go.md`, "Pairing"; module Decision): 18 or 9."""
    return 2 * MAX_STONES if half_stone else MAX_STONES


# --------------------------------------------------------------------------------------------------------------
# Input and the replayed state
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """A registration: the id the caller uses, the tournament-scale rating, and the rounds the player sits out."""

    id: str
    rating: float
    name: str = ""
    absent: frozenset[int] = frozenset()

    @property
    def display_name(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class GameResult:
    """A played game. ``winner`` is the white or black id, or ``None`` for a draw (only where draws are allowed).

    ``handicap`` and ``komi`` record what was actually played (a director's override); ``None`` means the table's.
    """

    white: str
    black: str
    winner: str | None
    handicap: int | None = None
    komi: str | None = None


@dataclass(frozen=True)
class Bye:
    """A bye: a win worth 1 point that neither extends nor breaks a streak (`rules/go.md`, Decision (bye))."""

    player: str


@dataclass(frozen=True)
class RoundEntry:
    """One player's round: a game, a bye, or absence, with the level before the round and the points it gave."""

    round: int
    kind: str  # "game", "bye" or "absent"
    level_before: int
    points: int
    opponent: str | None = None
    colour: str | None = None  # "white" or "black"
    result: str | None = None  # "win", "loss" or "draw"
    opponent_level_before: int | None = None
    handicap: int | None = None
    komi: str | None = None


@dataclass(frozen=True)
class PlayerState:
    """A player after the rounds replayed so far."""

    id: str
    name: str
    rating: float
    start_level: int
    level: int
    streak: int
    absent: frozenset[int]
    history: tuple[RoundEntry, ...]
    explanation: Explanation

    @property
    def opponents(self) -> frozenset[str]:
        return frozenset(e.opponent for e in self.history if e.kind == "game" and e.opponent is not None)

    @property
    def whites(self) -> int:
        return sum(1 for e in self.history if e.colour == "white")

    @property
    def blacks(self) -> int:
        return sum(1 for e in self.history if e.colour == "black")

    @property
    def byes(self) -> int:
        return sum(1 for e in self.history if e.kind == "bye")

    @property
    def levels_before(self) -> tuple[int, ...]:
        """The level before each round replayed (index 0 is round 1)."""
        return tuple(e.level_before for e in self.history)


@dataclass(frozen=True)
class TournamentState:
    """Every player replayed over the rounds played; ``players`` keeps the registration order."""

    options: Options
    players: tuple[PlayerState, ...]
    rounds_played: int
    _by_id: dict[str, PlayerState] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {p.id: p for p in self.players})

    @property
    def next_round(self) -> int:
        return self.rounds_played + 1

    def player(self, player_id: str) -> PlayerState:
        return self._by_id[player_id]

    def __contains__(self, player_id: object) -> bool:
        return player_id in self._by_id

    def present(self, round_number: int) -> tuple[str, ...]:
        """The players not marked absent in that round (registration order)."""
        return tuple(p.id for p in self.players if round_number not in p.absent)


def _level_explanation(start: int, rating: float, half_stone: bool, history: Sequence[RoundEntry]) -> Explanation:
    level = start + sum(e.points for e in history)
    wins = [e.points for e in history if e.kind == "game" and e.points]
    byes = [e.points for e in history if e.kind == "bye"]
    rating_text = f"{rating:g}"
    formula = f"{rating_text} * 2 // 100" if half_stone else f"{rating_text} // 100"
    if rating < 0:
        formula = f"0 (rating {rating_text} counts as 0)"
    en = [f"level {level} = start {start}"]
    ru = [f"уровень {level} = старт {start}"]
    if wins:
        en.append("wins " + " + ".join(str(w) for w in wins))
        ru.append("победы " + " + ".join(str(w) for w in wins))
    if byes:
        en.append("byes " + " + ".join(str(b) for b in byes))
        ru.append("баи " + " + ".join(str(b) for b in byes))
    en_text = " + ".join(en) + f" (start {start} = {formula})"
    ru_text = " + ".join(ru) + f" (старт {start} = {formula})"
    return Explanation(en_text, ru_text)


def replay(
    options: Options, entrants: Sequence[Entrant], games: Sequence[Sequence[GameResult | Bye]]
) -> TournamentState:
    """Replay the rounds' results into each player's level, streak, colours, opponents and byes.

    ``games[i]`` holds round i + 1. Errors name the field as ``manage.py rate`` spells it (``players[3].id``,
    ``games[1][3].winner``), so a service can map them back onto its own rows.

    `rules/go.md`, part 1: a win adds :func:`win_points` (streak + 1, capped by the rounds left), a loss or a draw
    adds nothing and ends the streak, a bye adds 1 and leaves the streak alone, absence adds nothing and (module
    Decision) ends the streak. Levels within a round all start from the levels before it.
    """
    index: dict[str, int] = {}
    for i, entrant in enumerate(entrants):
        if not isinstance(entrant.id, str) or not entrant.id:
            raise EngineError(f"players[{i}].id", f"{entrant.id!r} is not a non-empty string")
        if entrant.id in index:
            raise EngineError(f"players[{i}].id", f'"{entrant.id}" is registered twice (players[{index[entrant.id]}])')
        if not _is_number(entrant.rating):
            raise EngineError(f"players[{i}].rating", f"{entrant.rating!r} is not a number")
        for r in sorted(entrant.absent):
            if not _is_whole(r) or not 1 <= r <= options.rounds:
                raise EngineError(f"players[{i}].absent", f"{r!r} is not a round number 1..{options.rounds}")
        index[entrant.id] = i
    if len(games) > options.rounds:
        raise EngineError("games", f"{len(games)} rounds of results, but the tournament has {options.rounds} rounds")

    level = {e.id: start_level(e.rating, half_stone=options.half_stone) for e in entrants}
    streak = dict.fromkeys(index, 0)
    history: dict[str, list[RoundEntry]] = {e.id: [] for e in entrants}
    absent = {e.id: e.absent for e in entrants}

    def known(pid: Any, path: str, round_number: int, seen: dict[str, tuple[str, str]]) -> str:
        if not isinstance(pid, str) or pid not in index:
            raise EngineError(path, f"{pid!r} is not a registered player")
        if pid in seen:
            previous, kind = seen[pid]
            what = "already plays" if kind == "game" else "already has a bye"
            raise EngineError(path, f'"{pid}" {what} in round {round_number} ({previous})')
        if round_number in absent[pid]:
            raise EngineError(path, f'"{pid}" is marked absent in round {round_number}')
        return pid

    for r, round_games in enumerate(games):
        round_number = r + 1
        before = dict(level)
        seen: dict[str, tuple[str, str]] = {}
        entries: dict[str, RoundEntry] = {}
        for j, item in enumerate(round_games):
            path = f"games[{r}][{j}]"
            if isinstance(item, Bye):
                pid = known(item.player, f"{path}.bye", round_number, seen)
                seen[pid] = (path, "bye")
                entries[pid] = RoundEntry(round_number, "bye", before[pid], 1)
                continue
            if not isinstance(item, GameResult):
                raise EngineError(path, "is neither a game nor a bye")
            white = known(item.white, f"{path}.white", round_number, seen)
            seen[white] = (path, "game")
            if item.black == white:
                raise EngineError(f"{path}.black", f'"{white}" cannot play themselves')
            black = known(item.black, f"{path}.black", round_number, seen)
            seen[black] = (path, "game")
            if item.winner is None:
                if not options.draws_allowed:
                    raise EngineError(f"{path}.winner", "a draw, but this tournament does not allow draws")
            elif item.winner not in (white, black):
                raise EngineError(f"{path}.winner", f'"{item.winner}" is neither white nor black')
            if item.handicap is not None and (not _is_whole(item.handicap) or not 0 <= item.handicap <= MAX_STONES):
                raise EngineError(f"{path}.handicap", f"{item.handicap!r} is not a number of stones 0..{MAX_STONES}")
            if item.komi is not None and item.komi not in KOMI_KINDS:
                raise EngineError(f"{path}.komi", f"{item.komi!r} is not one of {', '.join(KOMI_KINDS)}")
            stones, komi = handicap_for(before[white] - before[black], half_stone=options.half_stone)
            if item.handicap is not None:
                stones = item.handicap
            if item.komi is not None:
                komi = item.komi
            for me, other, colour in ((white, black, "white"), (black, white, "black")):
                if item.winner is None:
                    result, points = "draw", 0
                    streak[me] = 0
                elif item.winner == me:
                    result = "win"
                    streak[me] += 1
                    points = win_points(streak[me], round_number, options.rounds, acceleration=options.acceleration)
                else:
                    result, points = "loss", 0
                    streak[me] = 0
                entries[me] = RoundEntry(
                    round_number, "game", before[me], points, other, colour, result, before[other], stones, komi
                )
        for pid in index:
            entry = entries.get(pid)
            if entry is None:
                entry = RoundEntry(round_number, "absent", before[pid], 0)
                streak[pid] = 0
            level[pid] = before[pid] + entry.points
            history[pid].append(entry)

    players = []
    for e in entrants:
        start = start_level(e.rating, half_stone=options.half_stone)
        players.append(
            PlayerState(
                id=e.id,
                name=e.display_name,
                rating=e.rating,
                start_level=start,
                level=level[e.id],
                streak=streak[e.id],
                absent=frozenset(e.absent),
                history=tuple(history[e.id]),
                explanation=_level_explanation(start, e.rating, options.half_stone, history[e.id]),
            )
        )
    return TournamentState(options=options, players=tuple(players), rounds_played=len(games))


# --------------------------------------------------------------------------------------------------------------
# Standings and the tie-break
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TiebreakTerm:
    """One game's share of the tie-break: ``(opp_final - own_final) - (opp_before - own_before)``."""

    round: int
    opponent: str
    own_final: int
    opponent_final: int
    own_before: int
    opponent_before: int

    @property
    def value(self) -> int:
        return (self.opponent_final - self.own_final) - (self.opponent_before - self.own_before)


@dataclass(frozen=True)
class Standing:
    """A line of the standings. ``shared`` is true when the place is shared with the players beside it."""

    place: int
    player: str
    name: str
    level: int
    start_level: int
    rating: float
    tiebreak: int | None
    shared: bool
    terms: tuple[TiebreakTerm, ...]
    explanation: Explanation

    def as_dict(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "player": self.player,
            "level": self.level,
            "tiebreak": self.tiebreak,
            "start_level": self.start_level,
            "rating": self.rating,
            "shared": self.shared,
            "explanation": self.explanation.as_dict(),
        }


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def tiebreak_terms(state: TournamentState, player_id: str) -> tuple[TiebreakTerm, ...]:
    """The games' terms of the Buchholz analogue, with the current levels taken as final.

    `rules/go.md`, part 1, "Final standing and the tie-break": over a player's games,
    ``(opponent's final level - own final level) - (opponent's level at the game - own level at the game)``;
    byes and absent rounds add nothing.
    """
    me = state.player(player_id)
    terms = []
    for e in me.history:
        if e.kind != "game" or e.opponent is None or e.opponent_level_before is None:
            continue
        terms.append(
            TiebreakTerm(
                e.round, e.opponent, me.level, state.player(e.opponent).level, e.level_before, e.opponent_level_before
            )
        )
    return tuple(terms)


def standings(state: TournamentState) -> tuple[Standing, ...]:
    """Everyone registered, ranked: level, then the tie-break (when on), then start rating, then a shared place.

    `rules/go.md`, part 1, "Final standing and the tie-break". Players sharing a place are listed by name.
    """
    use_tb = state.options.tiebreak
    rows = []
    for p in state.players:
        terms = tiebreak_terms(state, p.id)
        tb = sum(t.value for t in terms)
        rows.append((p, terms, tb))
    rows.sort(key=lambda row: (-row[0].level, -(row[2] if use_tb else 0), -row[0].rating, row[0].name, row[0].id))

    def group_key(row: tuple[PlayerState, tuple[TiebreakTerm, ...], int]) -> tuple[int, int, float]:
        return row[0].level, row[2] if use_tb else 0, row[0].rating

    result = []
    place = 0
    for i, row in enumerate(rows):
        if i == 0 or group_key(row) != group_key(rows[i - 1]):
            place = i + 1
        shared = (i > 0 and group_key(rows[i - 1]) == group_key(row)) or (
            i + 1 < len(rows) and group_key(rows[i + 1]) == group_key(row)
        )
        p, terms, tb = row
        if use_tb:
            if terms:
                parts = " ".join(
                    f"{'+ ' if k else ''}[round {t.round} vs {t.opponent}: ({t.opponent_final} - {t.own_final})"
                    f" - ({t.opponent_before} - {t.own_before}) = {_signed(t.value)}]"
                    for k, t in enumerate(terms)
                )
                parts_ru = " ".join(
                    f"{'+ ' if k else ''}[тур {t.round}, {t.opponent}: ({t.opponent_final} - {t.own_final})"
                    f" - ({t.opponent_before} - {t.own_before}) = {_signed(t.value)}]"
                    for k, t in enumerate(terms)
                )
                tb_en = f"; tie-break {_signed(tb)} = {parts}"
                tb_ru = f"; коэффициент {_signed(tb)} = {parts_ru}"
            else:
                tb_en, tb_ru = "; tie-break 0 (no games)", "; коэффициент 0 (партий нет)"
        else:
            tb_en, tb_ru = "", ""
        explanation = Explanation(p.explanation.en + tb_en, p.explanation.ru + tb_ru)
        result.append(
            Standing(
                place,
                p.id,
                p.name,
                p.level,
                p.start_level,
                p.rating,
                tb if use_tb else None,
                shared,
                terms,
                explanation,
            )
        )
    return tuple(result)


# --------------------------------------------------------------------------------------------------------------
# Matching: Edmonds' blossom search, one augmenting path at a time
# --------------------------------------------------------------------------------------------------------------


class _Matcher:
    """A matching over ``adj`` restricted to the alive vertices, grown and changed by single augmenting paths.

    The pairing needs questions a one-shot matching library does not answer cheaply ("can the rest still be paired
    if u plays v?", "who may be left over?"), and each is one alternating-tree search from a single exposed vertex
    (Edmonds 1965, in the compact base/LCA form): O(V + E) plus blossom contraction over the tree only.
    """

    def __init__(self, adj: list[list[int]]) -> None:
        self.adj = adj
        self.n = len(adj)
        self.mate = [-1] * self.n
        self.alive = [True] * self.n
        self.outer: list[bool] = []

    def search(self, root: int) -> bool:
        """Look for an augmenting path from the exposed ``root``; augment along it if found.

        When none exists, ``self.outer`` marks the vertices reachable from ``root`` by an even alternating path:
        exactly those that some maximum matching leaves exposed instead of ``root``.
        """
        n, adj, mate, alive = self.n, self.adj, self.mate, self.alive
        parent = [-1] * n
        base = list(range(n))
        outer = [False] * n
        outer[root] = True
        tree = [root]
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            marked = set()
            while True:
                a = base[a]
                marked.add(a)
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if b in marked:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, b: int, child: int, blossom: set[int]) -> None:
            while base[v] != b:
                blossom.add(base[v])
                blossom.add(base[mate[v]])
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in adj[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    b = lca(v, to)
                    blossom: set[int] = set()
                    mark_path(v, b, to, blossom)
                    mark_path(to, b, v, blossom)
                    for i in tree:
                        if base[i] in blossom:
                            base[i] = b
                            if not outer[i]:
                                outer[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    tree.append(to)
                    if mate[to] == -1:
                        while to != -1:
                            pv = parent[to]
                            nxt = mate[pv]
                            mate[to] = pv
                            mate[pv] = to
                            to = nxt
                        return True
                    m = mate[to]
                    outer[m] = True
                    tree.append(m)
                    queue.append(m)
        self.outer = outer
        return False

    def greedy(self, forward: list[list[int]]) -> None:
        """The seed's plain walk: each alive unpaired vertex, top down, takes its first alive unpaired candidate."""
        mate, alive = self.mate, self.alive
        for u in range(self.n):
            if not alive[u] or mate[u] != -1:
                continue
            for v in forward[u]:
                if alive[v] and mate[v] == -1:
                    mate[u] = v
                    mate[v] = u
                    break

    def complete(self) -> int:
        """Augment from every exposed alive vertex; returns the matching's size (then maximum, by Berge)."""
        for v in range(self.n):
            if self.alive[v] and self.mate[v] == -1:
                self.search(v)
        return sum(1 for v in range(self.n) if self.alive[v] and self.mate[v] != -1) // 2


def _legal_graph(levels: Sequence[int], met: Sequence[set[int]], gap: int) -> tuple[list[list[int]], list[list[int]]]:
    """Forward (lower-ranked, in rank order) and full adjacency of the legal games among ranked players.

    Levels are non-increasing in rank order, so each player's partners within ``gap`` levels form one contiguous
    range below them, already sorted by level gap and then by rank.
    """
    n = len(levels)
    negated = [-x for x in levels]
    forward: list[list[int]] = []
    for i in range(n):
        hi = bisect_right(negated, -levels[i] + gap)
        excluded = met[i]
        forward.append([j for j in range(i + 1, hi) if j not in excluded])
    full: list[list[int]] = [list(f) for f in forward]
    for i, f in enumerate(forward):
        for j in f:
            full[j].append(i)
    return forward, full


# --------------------------------------------------------------------------------------------------------------
# Pairing
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A game of the round: colours, levels before it, stones and komi (kind and amount, as the options set it)."""

    number: int
    white: str
    black: str
    white_level: int
    black_level: int
    handicap: int
    komi_kind: str
    komi: float
    colour_reason: str = ""

    @property
    def white_komi(self) -> float:
        """Komi added to white's score; negative when white pays (reverse komi)."""
        return -self.komi if self.komi_kind == KOMI_REVERSE else self.komi

    def as_dict(self) -> dict[str, Any]:
        return {
            "board": self.number,
            "white": self.white,
            "black": self.black,
            "handicap": self.handicap,
            "komi": self.komi_kind,
            "komi_points": self.komi,
            "white_level": self.white_level,
            "black_level": self.black_level,
            "colour_reason": self.colour_reason,
        }


@dataclass(frozen=True)
class PairingIssue:
    """A rule that had to give (engine pairing) or that a manual pairing breaks; ``rule`` is a ``RULE_*`` code.

    The engine reports ``field_unpairable`` (more byes than the one an odd field needs, because no-rematch and the
    9-stone limit leave some players without a legal opponent) and ``bye_repeat``. A manual pairing can break
    ``rematch``, ``handicap_limit``, ``colour``, ``handicap``, ``absent``, ``unpaired``, ``bye_repeat`` and
    ``bye_extra`` (more byes than a legal pairing of the field needs).
    """

    rule: str
    players: tuple[str, ...]
    explanation: Explanation

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "players": list(self.players), "explanation": self.explanation.as_dict()}


@dataclass(frozen=True)
class Pairing:
    """The next round: boards from the top down, byes, the seed used for colour draws, and issues to show."""

    round: int
    boards: tuple[Board, ...]
    byes: tuple[str, ...]
    seed: int
    issues: tuple[PairingIssue, ...]

    def as_list(self) -> list[dict[str, Any]]:
        """The ``next_round`` list of ``manage.py rate``: boards, then ``{"bye": id}`` entries."""
        return [b.as_dict() for b in self.boards] + [{"bye": p} for p in self.byes]


def _rank_key(p: PlayerState) -> tuple[int, float, str, str]:
    """`rules/go.md`, "Pairing": ranked by level, then start rating, then name (and the id, to be total)."""
    return -p.level, -p.rating, p.name, p.id


def _default_seed(round_number: int, present: Sequence[str]) -> int:
    text = f"{round_number}|" + "|".join(sorted(present))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def _coin(seed: int, round_number: int, a: str, b: str) -> str:
    """The seeded colour draw for one pair: the id that takes black. Independent of board order."""
    first, second = sorted((a, b))
    return first if random.Random(f"{seed}:{round_number}:{first}:{second}").random() < 0.5 else second


def board_for(state: TournamentState, a: str, b: str, *, seed: int, number: int = 0) -> Board:
    """The board for two players: colours, stones and komi as the rules give them.

    `rules/go.md`, Decision (colour): the lower level takes black; at equal levels the player who had white more
    often takes black, else the seeded draw. Stones and komi: :func:`handicap_for`. Useful for a director's manual
    pairing as well as the engine's.
    """
    pa, pb = state.player(a), state.player(b)
    if pa.level != pb.level:
        black, reason = (a, "lower level") if pa.level < pb.level else (b, "lower level")
    elif pa.whites != pb.whites:
        black, reason = (a, "had white more often") if pa.whites > pb.whites else (b, "had white more often")
    else:
        black, reason = _coin(seed, state.next_round, a, b), "seeded draw"
    white = b if black == a else a
    pw, pbk = state.player(white), state.player(black)
    stones, kind = handicap_for(pw.level - pbk.level, half_stone=state.options.half_stone)
    return Board(number, white, black, pw.level, pbk.level, stones, kind, state.options.komi_points(kind), reason)


def _present(state: TournamentState, present: Collection[str] | None) -> list[PlayerState]:
    if present is None:
        ids: Collection[str] = state.present(state.next_round)
    else:
        ids = present
        for i, pid in enumerate(ids):
            if pid not in state:
                raise EngineError(f"present[{i}]", f"{pid!r} is not a registered player")
    return [state.player(pid) for pid in dict.fromkeys(ids)]


def _why_unpaired(state: TournamentState, p: PlayerState, field: Sequence[PlayerState]) -> tuple[str, str]:
    gap = state.options.max_level_gap
    near = [q for q in field if q.id != p.id and abs(q.level - p.level) <= gap]
    met = sum(1 for q in near if q.id in p.opponents)
    far = len(field) - 1 - len(near)
    return (
        f"{p.id}: {len(near)} present within 9 stones, {met} of them already met; {far} more than 9 stones away",
        f"{p.id}: в пределах 9 камней {len(near)}, из них уже встречались {met}; дальше 9 камней {far}",
    )


def pair_round(state: TournamentState, *, seed: int | None = None, present: Collection[str] | None = None) -> Pairing:
    """Pair round ``state.next_round`` among the present players (by default: those not marked absent).

    `rules/go.md`, part 1, "Pairing" and its Decisions, in this order:

    1. Legal games: never a rematch, never more than 9 stones (a level gap of at most 18 / 9, module Decision).
    2. As many legal games as possible (a maximum matching); the players left over get byes, chosen by fewest
       byes so far and then lowest rank among the players some maximum matching can leave over. With an odd field
       that can be paired, that is one bye for the lowest-ranked player who can take it.
    3. The safe walk: going down from the favourites (level, start rating, name), each unpaired player takes the
       closest-level opponent (ties: the higher-ranked) for which the rest can still be paired completely. The
       check is one alternating-path search, made only when the closest candidate is not the current matching's
       partner; if it fails, one more search lists every partner that keeps the rest pairable.
    4. Colours, stones and komi by :func:`board_for`.
    """
    options = state.options
    round_number = state.next_round
    if round_number > options.rounds:
        raise EngineError("round", f"all {options.rounds} rounds have been played")
    ranked = sorted(_present(state, present), key=_rank_key)
    ids = [p.id for p in ranked]
    if seed is None:
        seed = _default_seed(round_number, ids)
    elif not _is_whole(seed):
        raise EngineError("seed", f"{seed!r} is not a whole number")
    n = len(ranked)
    position = {pid: i for i, pid in enumerate(ids)}
    met = [{position[o] for o in p.opponents if o in position} for p in ranked]
    forward, full = _legal_graph([p.level for p in ranked], met, options.max_level_gap)

    # Step 2: the maximum number of games, and who sits out.
    matcher = _Matcher(full)
    matcher.greedy(forward)
    size = matcher.complete()
    need = n - 2 * size
    bye_set: list[int] = []
    for c in sorted(range(n), key=lambda i: (ranked[i].byes, -i)):
        if len(bye_set) == need:
            break
        partner = matcher.mate[c]
        matcher.alive[c] = False
        if partner == -1:
            bye_set.append(c)
            continue
        matcher.mate[c] = matcher.mate[partner] = -1
        if matcher.search(partner):
            bye_set.append(c)
        else:
            matcher.alive[c] = True
            matcher.mate[c], matcher.mate[partner] = partner, c

    # Step 3: the safe walk over the rest, starting from the plain walk made complete.
    matcher.mate = [-1] * n
    matcher.alive = [True] * n
    for c in bye_set:
        matcher.alive[c] = False
    matcher.greedy(forward)
    matcher.complete()
    mate, alive = matcher.mate, matcher.alive
    pairs: list[tuple[int, int]] = []
    for u in range(n):
        if not alive[u]:
            continue
        a = mate[u]
        closest = next(v for v in forward[u] if alive[v])
        chosen = closest
        if closest != a:
            b = mate[closest]
            alive[u] = alive[closest] = False
            mate[a] = mate[b] = mate[u] = mate[closest] = -1
            if not matcher.search(a):
                alive[u] = alive[closest] = True
                mate[u], mate[a], mate[closest], mate[b] = a, u, b, closest
                alive[u] = False
                mate[a] = -1
                matcher.search(a)
                outer = matcher.outer
                alive[u] = True
                mate[a] = u
                chosen = next(v for v in forward[u] if alive[v] and outer[v])
                if chosen != a:
                    b = mate[chosen]
                    alive[u] = alive[chosen] = False
                    mate[a] = mate[b] = mate[u] = mate[chosen] = -1
                    matcher.search(a)
        alive[u] = alive[chosen] = False
        mate[u], mate[chosen] = chosen, u
        pairs.append((u, chosen))

    boards = tuple(board_for(state, ids[u], ids[v], seed=seed, number=k + 1) for k, (u, v) in enumerate(pairs))
    byes = tuple(ids[c] for c in sorted(bye_set))
    issues: list[PairingIssue] = []
    if need > n % 2:
        reasons = [_why_unpaired(state, ranked[c], ranked) for c in sorted(bye_set)]
        issues.append(
            PairingIssue(
                RULE_FIELD_UNPAIRABLE,
                byes,
                Explanation(
                    f"the field cannot be paired without a rematch or more than 9 stones: {size} games and "
                    f"{need} byes instead of {n % 2}; " + "; ".join(r[0] for r in reasons),
                    f"всех нельзя спарить без повторной встречи или форы больше 9 камней: {size} партий и "
                    f"{need} баев вместо {n % 2}; " + "; ".join(r[1] for r in reasons),
                ),
            )
        )
    bye_ids = set(byes)
    fewest_left = min((p.byes for p in ranked if p.id not in bye_ids), default=None)
    for pid in byes:
        p = state.player(pid)
        if fewest_left is not None and p.byes > fewest_left:
            issues.append(
                PairingIssue(
                    RULE_BYE_REPEAT,
                    (pid,),
                    Explanation(
                        f"{pid} gets bye number {p.byes + 1} while a present player has had {fewest_left}: "
                        "nobody with fewer byes could sit out and leave the rest legally paired",
                        f"{pid} получает бай в {p.byes + 1}-й раз, хотя другой участник получил их {fewest_left}: "
                        "никто из имеющих меньше баев не мог пропустить тур так, чтобы остальные спарились",
                    ),
                )
            )
    return Pairing(round_number, boards, byes, seed, tuple(issues))


def check_pairing(
    state: TournamentState,
    boards: Sequence[Board | tuple[str, str]],
    byes: Sequence[str] = (),
    *,
    present: Collection[str] | None = None,
) -> tuple[PairingIssue, ...]:
    """The rules a director's manual pairing of round ``state.next_round`` breaks (empty when it breaks none).

    ``boards`` are :class:`Board` (colours, stones and komi checked against the rules) or ``(white, black)``
    pairs (colours checked, stones not). Structural mistakes (an unknown player, a player twice, a player against
    themselves) raise :class:`EngineError` with ``boards[i].white``-style paths: such a pairing cannot be stored.
    """
    options = state.options
    round_number = state.next_round
    ranked = sorted(_present(state, present), key=_rank_key)
    present_ids = {p.id for p in ranked}
    seen: dict[str, str] = {}
    issues: list[PairingIssue] = []

    def use(pid: Any, path: str) -> str:
        if not isinstance(pid, str) or pid not in state:
            raise EngineError(path, f"{pid!r} is not a registered player")
        if pid in seen:
            raise EngineError(path, f'"{pid}" is already in this round ({seen[pid]})')
        seen[pid] = path
        if pid not in present_ids:
            issues.append(
                PairingIssue(
                    RULE_ABSENT,
                    (pid,),
                    Explanation(f"{pid} is absent in round {round_number}", f"{pid} отсутствует в туре {round_number}"),
                )
            )
        return pid

    for i, item in enumerate(boards):
        white, black = (item.white, item.black) if isinstance(item, Board) else item
        use(white, f"boards[{i}].white")
        if black == white:
            raise EngineError(f"boards[{i}].black", f'"{white}" cannot play themselves')
        use(black, f"boards[{i}].black")
        pw, pb = state.player(white), state.player(black)
        pair = (white, black)
        if black in pw.opponents:
            issues.append(
                PairingIssue(
                    RULE_REMATCH,
                    pair,
                    Explanation(f"{white} and {black} have already played", f"{white} и {black} уже играли"),
                )
            )
        gap = abs(pw.level - pb.level)
        if gap > options.max_level_gap:
            stones = handicap_for(gap, half_stone=options.half_stone)[0]
            issues.append(
                PairingIssue(
                    RULE_HANDICAP_LIMIT,
                    pair,
                    Explanation(
                        f"{white} - {black}: level gap {gap} needs {stones} stones, more than 9",
                        f"{white} - {black}: разница уровней {gap} требует {stones} камней, больше 9",
                    ),
                )
            )
        wrong_colour = pw.level < pb.level or (pw.level == pb.level and pw.whites > pb.whites)
        if wrong_colour:
            issues.append(
                PairingIssue(
                    RULE_COLOUR,
                    pair,
                    Explanation(
                        f"{white} takes white but should take black (level {pw.level} vs {pb.level}, "
                        f"whites {pw.whites} vs {pb.whites})",
                        f"{white} играет белыми, но должен чёрными (уровень {pw.level} против {pb.level}, "
                        f"белых {pw.whites} против {pb.whites})",
                    ),
                )
            )
        if isinstance(item, Board):
            stones, kind = handicap_for(gap, half_stone=options.half_stone)
            if (item.handicap, item.komi_kind) != (stones, kind):
                issues.append(
                    PairingIssue(
                        RULE_HANDICAP,
                        pair,
                        Explanation(
                            f"{white} - {black}: {item.handicap} stones, {item.komi_kind} komi; the level gap {gap} "
                            f"gives {stones} stones, {kind} komi",
                            f"{white} - {black}: фора {item.handicap}, коми {item.komi_kind}; разница уровней {gap} "
                            f"даёт фору {stones}, коми {kind}",
                        ),
                    )
                )
    for j, pid in enumerate(byes):
        use(pid, f"byes[{j}]")
    for p in ranked:
        if p.id not in seen:
            issues.append(
                PairingIssue(
                    RULE_UNPAIRED,
                    (p.id,),
                    Explanation(
                        f"{p.id} is present but neither plays nor has a bye",
                        f"{p.id} присутствует, но не играет и не получает бай",
                    ),
                )
            )
    bye_ids = set(byes)
    fewest_left = min((p.byes for p in ranked if p.id not in bye_ids), default=None)
    for pid in byes:
        p = state.player(pid)
        if fewest_left is not None and p.byes > fewest_left:
            issues.append(
                PairingIssue(
                    RULE_BYE_REPEAT,
                    (pid,),
                    Explanation(
                        f"{pid} gets bye number {p.byes + 1} while a present player has had {fewest_left}",
                        f"{pid} получает бай в {p.byes + 1}-й раз, хотя другой участник получил их {fewest_left}",
                    ),
                )
            )
    if byes:
        position = {p.id: i for i, p in enumerate(ranked)}
        met = [{position[o] for o in p.opponents if o in position} for p in ranked]
        forward, full = _legal_graph([p.level for p in ranked], met, options.max_level_gap)
        matcher = _Matcher(full)
        matcher.greedy(forward)
        needed = len(ranked) - 2 * matcher.complete()
        given = len([pid for pid in byes if pid in present_ids])
        if given > needed:
            issues.append(
                PairingIssue(
                    RULE_BYE_EXTRA,
                    tuple(byes),
                    Explanation(
                        f"{given} byes where a legal pairing needs {needed}",
                        f"баев {given}, но законной жеребьёвке нужно {needed}",
                    ),
                )
            )
    return tuple(issues)


# --------------------------------------------------------------------------------------------------------------
# manage.py rate
# --------------------------------------------------------------------------------------------------------------

_OPTION_KEYS = {
    "half_stone": "half_stone",
    "acceleration": "acceleration",
    "draws": "draws_allowed",
    "tiebreak": "tiebreak",
}
_KOMI_KEYS = {"normal": "komi_normal", "none": "komi_none", "reverse": "komi_reverse"}
_TOP_KEYS = {"system", "options", "rounds", "players", "games", "pair_next", "seed"}
_PLAYER_KEYS = {"id", "rating", "name", "absent"}
_GAME_KEYS = {"white", "black", "winner", "handicap", "komi"}


def _unknown_keys(raw: dict, allowed: Collection[str], path: str) -> None:
    for key in raw:
        if key not in allowed:
            where = f"{path}.{key}" if path else str(key)
            raise EngineError(where, f"unknown key (expected one of {', '.join(sorted(allowed))})")


def _parse_options(raw: Any, rounds: Any) -> Options:
    if not isinstance(raw, dict):
        raise EngineError("options", "is not a JSON object")
    _unknown_keys(raw, [*_OPTION_KEYS, "komi"], "options")
    kwargs: dict[str, Any] = {}
    for key, name in _OPTION_KEYS.items():
        if key in raw:
            if not isinstance(raw[key], bool):
                raise EngineError(f"options.{key}", f"{raw[key]!r} is not true or false")
            kwargs[name] = raw[key]
    komi = raw.get("komi", {})
    if not isinstance(komi, dict):
        raise EngineError("options.komi", "is not a JSON object")
    _unknown_keys(komi, _KOMI_KEYS, "options.komi")
    for key, name in _KOMI_KEYS.items():
        if key in komi:
            if not _is_number(komi[key]) or komi[key] < 0:
                raise EngineError(f"options.komi.{key}", f"{komi[key]!r} is not a number of points >= 0")
            kwargs[name] = komi[key]
    if not _is_whole(rounds) or rounds < 1:
        raise EngineError("rounds", f"{rounds!r} is not a whole number of rounds of at least 1")
    return Options(rounds=rounds, **kwargs)


def _parse_players(raw: Any) -> list[Entrant]:
    if not isinstance(raw, list):
        raise EngineError("players", "is not a list")
    entrants = []
    for i, item in enumerate(raw):
        path = f"players[{i}]"
        if not isinstance(item, dict):
            raise EngineError(path, "is not a JSON object")
        _unknown_keys(item, _PLAYER_KEYS, path)
        if "id" not in item:
            raise EngineError(f"{path}.id", "missing")
        if "rating" not in item:
            raise EngineError(f"{path}.rating", "missing")
        name = item.get("name", "")
        if not isinstance(name, str):
            raise EngineError(f"{path}.name", f"{name!r} is not a string")
        absent = item.get("absent", [])
        if not isinstance(absent, list):
            raise EngineError(f"{path}.absent", "is not a list of round numbers")
        for k, r in enumerate(absent):
            if not _is_whole(r):
                raise EngineError(f"{path}.absent[{k}]", f"{r!r} is not a round number")
        entrants.append(Entrant(id=item["id"], rating=item["rating"], name=name, absent=frozenset(absent)))
    return entrants


def _parse_games(raw: Any) -> list[list[GameResult | Bye]]:
    if not isinstance(raw, list):
        raise EngineError("games", "is not a list of rounds")
    rounds: list[list[GameResult | Bye]] = []
    for r, round_raw in enumerate(raw):
        if not isinstance(round_raw, list):
            raise EngineError(f"games[{r}]", "is not a list of games")
        items: list[GameResult | Bye] = []
        for j, item in enumerate(round_raw):
            path = f"games[{r}][{j}]"
            if not isinstance(item, dict):
                raise EngineError(path, "is not a JSON object")
            if "bye" in item:
                _unknown_keys(item, {"bye"}, path)
                items.append(Bye(item["bye"]))
                continue
            _unknown_keys(item, _GAME_KEYS, path)
            for key in ("white", "black", "winner"):
                if key not in item:
                    hint = " (a player id, or null for a draw)" if key == "winner" else ""
                    raise EngineError(f"{path}.{key}", f"missing{hint}")
            items.append(
                GameResult(item["white"], item["black"], item["winner"], item.get("handicap"), item.get("komi"))
            )
        rounds.append(items)
    return rounds


def rate_document(doc: dict) -> dict:
    """The ``selfhandicap`` section of `RATE_CLI.md`: a JSON document in, a JSON document out.

    Input beyond the contract: ``options.draws`` (default false), ``options.tiebreak`` (default true),
    ``options.komi`` (``{"normal": 6.5, "none": 0.5, "reverse": 6.5}``), a player's ``name`` and ``absent`` (round
    numbers the player sits out), and ``seed`` (the colour draw of the next round). Options default to PROFS
    (``half_stone`` and ``acceleration`` false). Output beyond the contract: each standing's ``start_level``,
    ``rating``, ``shared`` and ``explanation``; each board's number, komi points, levels and colour reason; with
    ``pair_next``, the ``round``, the ``seed`` used and the ``issues`` of the pairing.
    """
    if not isinstance(doc, dict):
        raise EngineError("document", "is not a JSON object")
    _unknown_keys(doc, _TOP_KEYS, "")
    system = doc.get("system", "selfhandicap")
    if system != "selfhandicap":
        raise EngineError("system", f'{system!r} is not "selfhandicap"')
    if "rounds" not in doc:
        raise EngineError("rounds", "missing (the number of rounds of the tournament)")
    options = _parse_options(doc.get("options", {}), doc["rounds"])
    entrants = _parse_players(doc.get("players", []))
    games = _parse_games(doc.get("games", []))
    pair_next = doc.get("pair_next", False)
    if not isinstance(pair_next, bool):
        raise EngineError("pair_next", f"{pair_next!r} is not true or false")
    seed = doc.get("seed")
    if seed is not None and not _is_whole(seed):
        raise EngineError("seed", f"{seed!r} is not a whole number")
    state = replay(options, entrants, games)
    out: dict[str, Any] = {"standings": [s.as_dict() for s in standings(state)]}
    if pair_next:
        if state.next_round > options.rounds:
            raise EngineError("pair_next", f"all {options.rounds} rounds have been played")
        pairing = pair_round(state, seed=seed)
        out["next_round"] = pairing.as_list()
        out["round"] = pairing.round
        out["seed"] = pairing.seed
        out["issues"] = [i.as_dict() for i in pairing.issues]
    return out
