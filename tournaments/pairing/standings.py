"""A tournament replayed from its results, and its standings: levels, streaks, colours, byes, the tie-break.

`rules/go.md`, part 1: :func:`replay` turns the rounds played into each player's state, :func:`standings` ranks
everyone by level and the Buchholz analogue. The pairing of the next round starts from the same replayed state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ratings.engines.common import EngineError, Explanation
from ratings.engines.parse import is_number, is_whole
from tournaments.pairing.names import alphabetical
from tournaments.pairing.options import KOMI_KINDS, MAX_STONES, Options, playable_handicap, start_level, win_points


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


#: ``GameResult.both``: the special results a director may enter (as OpenGotha offers them), where the game has no
#: single winner: both players win, or both lose (a double forfeit is "both lose" to the engine).
BOTH_WIN = "win"
BOTH_LOSE = "loss"


@dataclass(frozen=True)
class GameResult:
    """A played game. ``winner`` is the white or black id, or ``None`` for a draw (only where draws are allowed).

    ``handicap`` and ``komi`` record what was actually played (a director's override); ``None`` means the table's.
    ``both`` (``BOTH_WIN`` or ``BOTH_LOSE``, ``winner`` then ``None``): a special result. Package Decision: each
    player's round counts as the win or the loss it says, exactly as a win or a loss against that opponent would
    (points, streak, colours, the tie-break's term, no rematch); the rules know only wins and losses, and a
    director who records both as losers means each lost.
    """

    white: str
    black: str
    winner: str | None
    handicap: int | None = None
    komi: str | None = None
    both: str | None = None


@dataclass(frozen=True)
class ByeResult:
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
    options: Options, entrants: Sequence[Entrant], games: Sequence[Sequence[GameResult | ByeResult]]
) -> TournamentState:
    """Replay the rounds' results into each player's level, streak, colours, opponents and byes.

    ``games[i]`` holds round i + 1. Errors name the field as ``manage.py rate`` spells it (``players[3].id``,
    ``games[1][3].winner``), so a service can map them back onto its own rows.

    `rules/go.md`, part 1: a win adds :func:`win_points` (streak + 1, capped by the rounds left), a loss or a draw
    adds nothing and ends the streak, a bye adds 1 and leaves the streak alone, absence adds nothing and (package
    Decision) ends the streak. Levels within a round all start from the levels before it.
    """
    index: dict[str, int] = {}
    for i, entrant in enumerate(entrants):
        if not isinstance(entrant.id, str) or not entrant.id:
            raise EngineError(f"players[{i}].id", f"{entrant.id!r} is not a non-empty string")
        if entrant.id in index:
            raise EngineError(f"players[{i}].id", f'"{entrant.id}" is registered twice (players[{index[entrant.id]}])')
        if not is_number(entrant.rating):
            raise EngineError(f"players[{i}].rating", f"{entrant.rating!r} is not a number")
        for r in sorted(entrant.absent):
            if not is_whole(r) or not 1 <= r <= options.rounds:
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
            if isinstance(item, ByeResult):
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
            if item.both is not None:
                if item.both not in (BOTH_WIN, BOTH_LOSE):
                    raise EngineError(f"{path}.both", f'{item.both!r} is neither "{BOTH_WIN}" nor "{BOTH_LOSE}"')
                if item.winner is not None:
                    raise EngineError(f"{path}.winner", "a special result for both players has no single winner")
            elif item.winner is None:
                if not options.draws_allowed:
                    raise EngineError(f"{path}.winner", "a draw, but this tournament does not allow draws")
            elif item.winner not in (white, black):
                raise EngineError(f"{path}.winner", f'"{item.winner}" is neither white nor black')
            if item.handicap is not None and (not is_whole(item.handicap) or not 0 <= item.handicap <= MAX_STONES):
                raise EngineError(f"{path}.handicap", f"{item.handicap!r} is not a number of stones 0..{MAX_STONES}")
            if item.komi is not None and item.komi not in KOMI_KINDS:
                raise EngineError(f"{path}.komi", f"{item.komi!r} is not one of {', '.join(KOMI_KINDS)}")
            stones, komi = playable_handicap(before[white] - before[black], half_stone=options.half_stone)
            if item.handicap is not None:
                stones = item.handicap
            if item.komi is not None:
                komi = item.komi
            for me, other, colour in ((white, black, "white"), (black, white, "black")):
                if item.both == BOTH_LOSE:
                    result, points = "loss", 0
                    streak[me] = 0
                elif item.winner is None and item.both is None:
                    result, points = "draw", 0
                    streak[me] = 0
                elif item.winner == me or item.both == BOTH_WIN:
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


def _name_order(p: PlayerState) -> tuple[str, str]:
    return alphabetical(p.name), p.id


def standings(state: TournamentState) -> tuple[Standing, ...]:
    """Everyone registered, ranked: level, then the tie-break (when on), then start rating, then a shared place.

    `rules/go.md`, part 1, "Final standing and the tie-break". Players sharing a place are listed by name, as their
    alphabet orders them (:func:`~tournaments.pairing.names.alphabetical`: Ё with Е).
    """
    use_tb = state.options.tiebreak
    rows = []
    for p in state.players:
        terms = tiebreak_terms(state, p.id)
        tb = sum(t.value for t in terms)
        rows.append((p, terms, tb))
    rows.sort(key=lambda row: (-row[0].level, -(row[2] if use_tb else 0), -row[0].rating, *_name_order(row[0])))

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
                explanation,
            )
        )
    return tuple(result)
