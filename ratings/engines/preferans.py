"""Preferans rating, deal by deal (SmartPref style), with bots' caps, smoothing above 4000, peaks and leagues.

The rules are `rules/preferans.md`. Every player at the table is updated at once from the ratings everyone had
before the deal; ratings keep full float precision and are never rounded between deals (rounding is for display).
The same arithmetic serves the per-deal service, the bulk rebuild (``rate_deals``, a tight loop that builds no
explanation unless asked), the public calculator (``deal_delta``) and ``manage.py rate``.

Decisions taken here where `rules/preferans.md` is silent:

- A bot's rating given above its level's maximum is clamped to it before the first deal, as after every deal.
- The all-bot ceiling is the highest maximum among the bots at the table (the human's opponents); smoothing above
  4000 is applied to the gain first, then the ceiling.
- A player whose starting rating is already at or above the Pro threshold is Pro from the start (they have
  reached it); the league is decided for bots by the same rule, the site leaves bots off the leaderboards.
- The peak (``max_rating``) starts at the player's starting rating and rises with every deal that sets a new high.
- In a series of deals, a game's table is the set of players of its first deal (or its ``players``); a later deal
  of the same game names that table or part of it (2 players at least): a player who left the game early is
  missing from the deals after they left (`rules/preferans.md`, "Principles"; `RATE_CLI.md`: "may lack a player who
  left, never add one"). A player not at the table is refused with the field named. Whether a player who is
  missing from one deal comes back in a later one is not asked: they are at the table either way. A deal that says
  ``players`` itself (a seat taken over, say by a bot) makes them the game's table from then on.
- Starting states (``rate_document``'s ``ratings``, ``max_ratings``, ``leagues``): the league follows from the
  peak, since reaching the Pro threshold promotes for good: a peak at or above it means Pro, and a given league
  below what the peak implies ("amateur" with a peak of 1800 or more) is refused, as is a peak below the starting
  rating (the highest rating reached cannot be below the current one). A given "pro" with a lower peak is kept:
  the federation promoted the player, and Pro is for good.
- Whists are whole numbers (an integral float such as ``3.0`` is taken as 3), and a deal's whists sum to zero.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ratings.engines.common import EngineError, Explanation
from ratings.engines.parse import (
    integral,
    is_number,
    is_whole,
    parse_number,
    parse_object,
    parse_str,
    require,
)

AMATEUR = "amateur"
PRO = "pro"
LEAGUES = (AMATEUR, PRO)


@dataclass(frozen=True, slots=True)
class PreferansSettings:
    """The settings of a preferans rating list, with the defaults of `rules/preferans.md`, "Formula"."""

    start_rating: float = 1000.0
    pro_threshold: float = 1800.0
    x: float = 6.0
    y: float = 22.0
    base_kd: float = 2.0
    min_kd: float = 0.3
    max_kd: float = 2.0
    expected_cap: float = 4.0
    smoothing_threshold: float = 4000.0

    def __post_init__(self) -> None:
        for name in ("x", "y", "base_kd", "smoothing_threshold"):
            value = getattr(self, name)
            if not is_number(value) or value <= 0:
                raise EngineError(f"settings.{name}", f"{value!r} is not a positive number")
        for name in ("start_rating", "pro_threshold", "min_kd", "max_kd", "expected_cap"):
            parse_number(getattr(self, name), f"settings.{name}")
        if self.min_kd > self.max_kd:
            raise EngineError("settings.min_kd", f"{self.min_kd} is larger than max_kd ({self.max_kd})")


DEFAULT_SETTINGS = PreferansSettings()


@dataclass(frozen=True, slots=True)
class PlayerState:
    """What the rating holds for one player. ``bot_max`` is the bot level's maximum, ``None`` for a human."""

    rating: float
    max_rating: float
    league: str = AMATEUR
    bot_max: float | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot_max is not None


def new_player(settings: PreferansSettings = DEFAULT_SETTINGS, *, bot_max: float | None = None) -> PlayerState:
    """A newcomer: 1000 for a human; a bot starts at its level's maximum (`RATE_CLI.md`, Preferans)."""
    rating = settings.start_rating if bot_max is None else bot_max
    return PlayerState(rating=rating, max_rating=rating, league=league_for(AMATEUR, rating, settings), bot_max=bot_max)


def league_for(league: str, rating: float, settings: PreferansSettings = DEFAULT_SETTINGS) -> str:
    """`rules/preferans.md`, "Principles": reaching the Pro threshold promotes for good."""
    return PRO if league == PRO or rating >= settings.pro_threshold else AMATEUR


@dataclass(frozen=True, slots=True)
class DealWhists:
    """One completed deal: each player's net whists (`rules/preferans.md`, "What a deal's whists are")."""

    game: str
    whists: Mapping[str, int]
    players: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class DealChange:
    """One player's change in one deal, with every number of the formula kept for the explanation."""

    player: str
    before: PlayerState
    after: PlayerState
    table_rating: float
    whists: int
    kv: float
    expected: float
    kd: float
    raw_delta: float
    smoothing: float
    ceiling: float | None
    delta: float
    settings: PreferansSettings = DEFAULT_SETTINGS

    @property
    def explanation(self) -> Explanation:
        return _explain(self)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """The changes of one deal, one per player at the table, in the order of the whists."""

    changes: tuple[DealChange, ...]

    @property
    def players(self) -> dict[str, PlayerState]:
        return {change.player: change.after for change in self.changes}


@dataclass(frozen=True, slots=True)
class Ledger:
    """The result of a series of deals: every player's state; the per-deal outcomes only when asked for."""

    players: Mapping[str, PlayerState]
    outcomes: tuple[DealOutcome, ...] | None = None


def table_rating(opponents: Sequence[float]) -> float:
    """`rules/preferans.md`, "Formula": Rt from the opponents' ratings r1 >= r2 >= r3 (1 to 3 opponents)."""
    ordered = sorted(opponents, reverse=True)
    if len(ordered) == 1:
        return ordered[0]
    if len(ordered) == 2:
        return (2 * ordered[0] + ordered[1]) / 3
    if len(ordered) == 3:
        return (3 * ordered[0] + 2 * ordered[1] + ordered[2]) / 6
    raise EngineError("opponents", f"a table has 2 to 4 players, so 1 to 3 opponents, not {len(ordered)}")


def deal_delta(rs: float, rt: float, vs: float, settings: PreferansSettings = DEFAULT_SETTINGS) -> float:
    """Rd for a player rated ``rs`` at a table rated ``rt`` who scored ``vs`` whists (the calculator's cell).

    `rules/preferans.md`, "Formula for one player in one deal", then "Decision (smoothing above 4000)". Bots' caps
    depend on who sits at the table and are applied by ``rate_deal``.
    """
    raw = _formula(rs, rt, vs, settings)[3]
    if raw > 0 and rs > settings.smoothing_threshold:
        return raw * (settings.smoothing_threshold / rs)
    return raw


def expected_whists(rs: float, rt: float, settings: PreferansSettings = DEFAULT_SETTINGS) -> float:
    """Vf, the whists a player rated ``rs`` is expected to score at a table rated ``rt`` (break-even of the deal)."""
    return _formula(rs, rt, 0, settings)[1]


def _formula(rs: float, rt: float, vs: float, settings: PreferansSettings) -> tuple[float, float, float, float]:
    # `rules/preferans.md`, "Formula for one player in one deal":
    #   Kv = 60 + (Rs - Rt)/X if Rs > Rt, else 60 + (Rt - Rs)/Y;  Vf = min((Rs - Rt)/Kv, 4)
    #   Kd = clamp(baseKd / (1 + log10(1 + |Rs - Rt|/100)), minKd, maxKd);  Rd = ±Kd·sqrt(|Vs - Vf|)
    diff = rs - rt
    kv = 60.0 + diff / settings.x if diff > 0 else 60.0 - diff / settings.y
    vf = diff / kv
    if vf > settings.expected_cap:
        vf = settings.expected_cap
    kd = settings.base_kd / (1.0 + math.log10(1.0 + abs(diff) / 100.0))
    if kd < settings.min_kd:
        kd = settings.min_kd
    elif kd > settings.max_kd:
        kd = settings.max_kd
    if vs > vf:
        raw = kd * math.sqrt(vs - vf)
    elif vs < vf:
        raw = -kd * math.sqrt(vf - vs)
    else:
        raw = 0.0
    return kv, vf, kd, raw


def rate_deal(
    players: Mapping[str, PlayerState],
    whists: Mapping[str, int],
    settings: PreferansSettings = DEFAULT_SETTINGS,
    *,
    path: str = "whists",
) -> DealOutcome:
    """Rate one deal: every player at the table from the states before the deal (`rules/preferans.md`).

    ``players`` must hold a state for everyone in ``whists`` (use ``new_player`` for a newcomer or a bot).
    """
    _validate_whists(whists, path)
    for player in whists:
        if player not in players:
            raise EngineError(path, f'player "{player}" has no rating state')
    names = list(whists)
    states = [players[name] for name in names]
    ratings = [state.rating for state in states]
    changes = []
    for i, name in enumerate(names):
        state = states[i]
        rs = state.rating
        opponents = ratings[:i] + ratings[i + 1 :]
        rt = table_rating(opponents)
        vs = whists[name]
        kv, vf, kd, raw = _formula(rs, rt, vs, settings)
        rd = raw
        smoothing = 1.0
        if rd > 0 and rs > settings.smoothing_threshold:
            smoothing = settings.smoothing_threshold / rs
            rd *= smoothing
        ceiling = None
        if state.bot_max is None and all(states[j].bot_max is not None for j in range(len(names)) if j != i):
            ceiling = max(states[j].bot_max for j in range(len(names)) if j != i)
            if rd > 0:
                rd = min(rd, max(0.0, ceiling - rs))
        after = rs + rd
        if state.bot_max is not None and after > state.bot_max:
            after = state.bot_max
            rd = after - rs
        new_state = PlayerState(
            rating=after,
            max_rating=max(state.max_rating, after),
            league=league_for(state.league, after, settings),
            bot_max=state.bot_max,
        )
        changes.append(DealChange(name, state, new_state, rt, vs, kv, vf, kd, raw, smoothing, ceiling, rd, settings))
    return DealOutcome(changes=tuple(changes))


class DealRun:
    """Deals rated in order, one step per deal as the caller asks for it: the bulk import streams the steps to the
    database while the next ones are rated. Anyone without a state is a newcomer (a bot if in ``bots``).

    Iterating yields, for each deal, ``(names, before, after, pro_before, deltas)``: the players in the order of the
    whists, their ratings before and after the deal, whether each was Pro before it, and each change as
    ``rate_deal`` gives it (``DealChange.delta``, which ``after - before`` can miss by a rounding). ``players()``
    gives everyone's state once the run is through. ``rate_deals`` is this run with the steps thrown away.

    ``checked=True`` skips the per-deal validation, for a caller that has already refused everything it refuses (2
    to 4 players named by non-empty strings, whole whists summing to zero, one table per game) with its own field
    names: the bulk import does, so a deal is not checked twice.
    """

    __slots__ = ("_bots", "_checked", "_deals", "_path", "_settings", "bot_max", "peak", "pro", "rating")

    def __init__(
        self,
        deals: Sequence[DealWhists],
        players: Mapping[str, PlayerState] | None = None,
        settings: PreferansSettings = DEFAULT_SETTINGS,
        *,
        bots: Mapping[str, float] | None = None,
        path: str = "deals",
        checked: bool = False,
    ) -> None:
        bots = dict(bots or {})
        for name, level_max in bots.items():
            parse_number(level_max, f"bots.{name}")
        self._deals, self._settings, self._bots, self._path = deals, settings, bots, path
        self._checked = checked
        self.rating: dict[str, float] = {}
        self.peak: dict[str, float] = {}
        self.pro: set[str] = set()
        self.bot_max: dict[str, float] = {}
        for name, state in (players or {}).items():
            cap = state.bot_max if state.bot_max is not None else bots.get(name)
            value = state.rating if cap is None else min(state.rating, cap)
            self.rating[name] = value
            self.peak[name] = max(state.max_rating, value)
            if cap is not None:
                self.bot_max[name] = cap
            if league_for(state.league, value, settings) == PRO:
                self.pro.add(name)

    def players(self) -> dict[str, PlayerState]:
        """Everyone's state now (after the steps taken so far)."""
        pro, bot_max, peak = self.pro, self.bot_max, self.peak
        return {
            name: PlayerState(value, peak[name], PRO if name in pro else AMATEUR, bot_max.get(name))
            for name, value in self.rating.items()
        }

    def _newcomers(self, names: list[str]) -> None:
        settings = self._settings
        for name in names:
            if name not in self.rating:
                level_max = self._bots.get(name)
                value = settings.start_rating if level_max is None else level_max
                self.rating[name] = value
                self.peak[name] = value
                if level_max is not None:
                    self.bot_max[name] = level_max
                if value >= settings.pro_threshold:
                    self.pro.add(name)

    def __iter__(self):
        settings = self._settings
        rating, peak, pro, bot_max = self.rating, self.peak, self.pro, self.bot_max
        tables: dict[str, frozenset[str]] = {}
        threshold = settings.pro_threshold
        smooth_at = settings.smoothing_threshold
        x, y, cap4 = settings.x, settings.y, settings.expected_cap
        base_kd, min_kd, max_kd = settings.base_kd, settings.min_kd, settings.max_kd
        log10, sqrt = math.log10, math.sqrt
        path, checked = self._path, self._checked
        for index, deal in enumerate(self._deals):
            whists = deal.whists
            if not checked:
                _validate_deal(deal, f"{path}[{index}]", tables)
            names = list(whists)
            for name in names:
                if name not in rating:
                    self._newcomers(names)
                    break
            values = [rating[name] for name in names]
            pro_before = [name in pro for name in names]
            count = len(names)
            new_values = []
            deltas = []
            for i in range(count):
                rs = values[i]
                if count == 3:
                    a, b = values[i - 1], values[i - 2]
                    rt = (2 * a + b) / 3 if a >= b else (2 * b + a) / 3
                elif count == 4:
                    opponents = values[:i] + values[i + 1 :]
                    opponents.sort(reverse=True)
                    rt = (3 * opponents[0] + 2 * opponents[1] + opponents[2]) / 6
                else:
                    rt = values[1 - i]
                # `rules/preferans.md`, "Formula for one player in one deal" (the same as ``_formula``, inlined).
                diff = rs - rt
                kv = 60.0 + diff / x if diff > 0 else 60.0 - diff / y
                vf = diff / kv
                if vf > cap4:
                    vf = cap4
                kd = base_kd / (1.0 + log10(1.0 + (diff if diff > 0 else -diff) / 100.0))
                if kd < min_kd:
                    kd = min_kd
                elif kd > max_kd:
                    kd = max_kd
                vs = whists[names[i]]
                if vs > vf:
                    rd = kd * sqrt(vs - vf)
                    if rs > smooth_at:
                        rd *= smooth_at / rs
                    if bot_max and names[i] not in bot_max:
                        ceiling = None
                        for j in range(count):
                            if j != i:
                                level_max = bot_max.get(names[j])
                                if level_max is None:
                                    ceiling = None
                                    break
                                if ceiling is None or level_max > ceiling:
                                    ceiling = level_max
                        if ceiling is not None:
                            room = ceiling - rs
                            if rd > room:
                                rd = room if room > 0 else 0.0
                elif vs < vf:
                    rd = -kd * sqrt(vf - vs)
                else:
                    rd = 0.0
                deltas.append(rd)
                new_values.append(rs + rd)
            for i in range(count):
                name = names[i]
                value = new_values[i]
                level_max = bot_max.get(name)
                if level_max is not None and value > level_max:
                    value = new_values[i] = level_max
                    deltas[i] = level_max - values[i]
                rating[name] = value
                if value > peak[name]:
                    peak[name] = value
                if value >= threshold:
                    pro.add(name)
            yield names, values, new_values, pro_before, deltas


def rate_deals(
    deals: Sequence[DealWhists],
    players: Mapping[str, PlayerState] | None = None,
    settings: PreferansSettings = DEFAULT_SETTINGS,
    *,
    bots: Mapping[str, float] | None = None,
    record: bool = False,
    path: str = "deals",
) -> Ledger:
    """Rate deals in order; the bulk path of a rebuild. Anyone without a state is a newcomer (a bot if in ``bots``).

    With ``record=False`` (the default) no per-deal object is built, since a rebuild needs only the final states;
    ``record=True`` returns every ``DealOutcome`` with its explanations.
    """
    run = DealRun(deals, players, settings, bots=bots, path=path)
    if not record:
        for _ in run:
            pass
        return Ledger(players=run.players(), outcomes=None)
    rating, peak, pro, bot_max = run.rating, run.peak, run.pro, run.bot_max
    outcomes: list[DealOutcome] = []
    tables: dict[str, frozenset[str]] = {}
    for index, deal in enumerate(deals):
        where = f"{path}[{index}]"
        _validate_deal(deal, where, tables)
        names = list(deal.whists)
        run._newcomers(names)
        before = {
            name: PlayerState(rating[name], peak[name], PRO if name in pro else AMATEUR, bot_max.get(name))
            for name in names
        }
        outcome = rate_deal(before, deal.whists, settings, path=f"{where}.whists")
        outcomes.append(outcome)
        for change in outcome.changes:
            after = change.after
            rating[change.player] = after.rating
            peak[change.player] = after.max_rating
            if after.league == PRO:
                pro.add(change.player)
    return Ledger(players=run.players(), outcomes=tuple(outcomes))


# --- explanations ---------------------------------------------------------------------------------------------------


def _num(value: float, digits: int = 4) -> str:
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _paren(value: float) -> str:
    return f"({_num(value)})" if value < 0 else _num(value)


@functools.lru_cache(maxsize=16)
def _settings_texts(s: PreferansSettings) -> dict[str, str]:
    """The settings' numbers as the explanations write them, once per settings (they are the same for every change)."""
    return {
        name: _num(getattr(s, name))
        for name in ("x", "y", "expected_cap", "base_kd", "min_kd", "max_kd", "smoothing_threshold", "pro_threshold")
    }


def _explain(change: DealChange) -> Explanation:
    rs, rt, vs = change.before.rating, change.table_rating, change.whists
    kv, vf, kd = change.kv, change.expected, change.kd
    t = _settings_texts(change.settings)
    # Each number is written once and used in both languages.
    rs_t, rt_t, kv_t, vf_t, kd_t = _num(rs), _num(rt), _num(kv, 3), _num(vf), _num(kd)
    if rs > rt:
        kv_text = f"Kv = 60 + (Rs - Rt)/X = 60 + ({rs_t} - {rt_t})/{t['x']} = {kv_t}"
    else:
        kv_text = f"Kv = 60 + (Rt - Rs)/Y = 60 + ({rt_t} - {rs_t})/{t['y']} = {kv_t}"
    cap = t["expected_cap"]
    vf_text = f"Vf = min((Rs - Rt)/Kv, {cap}) = min({_num(rs - rt)}/{kv_t}, {cap}) = {vf_t}"
    kd_formula = f"Kd = {t['base_kd']}/(1 + log10(1 + {_num(abs(rs - rt))}/100))"
    kd_limits = f"[{t['min_kd']}, {t['max_kd']}]"
    if vs > vf:
        rd_text = (
            f"Rd = +Kd·√(Vs - Vf) = {kd_t}·√({vs} - {f'({vf_t})' if vf < 0 else vf_t}) = +{_num(change.raw_delta)}"
        )
    elif vs < vf:
        rd_text = f"Rd = -Kd·√(Vf - Vs) = -{kd_t}·√({vf_t} - {_paren(vs)}) = {_num(change.raw_delta)}"
    else:
        rd_text = "Vs = Vf, so Rd = 0"
    formula = f"{kv_text}; {vf_text}; {kd_formula}"
    en = [
        f"Rs = {rs_t}, whists Vs = {vs}; table rating Rt = {rt_t}; {formula}, kept within {kd_limits}, = {kd_t}; "
        + rd_text
    ]
    ru = [
        f"Rs = {rs_t}, висты Vs = {vs}; рейтинг стола Rt = {rt_t}; {formula}, в пределах {kd_limits}, = {kd_t}; "
        + rd_text
    ]
    if change.smoothing != 1.0:
        limit, factor = t["smoothing_threshold"], _num(change.smoothing)
        en.append(f"smoothing above {limit}: the gain is multiplied by {limit}/Rs = {factor}")
        ru.append(f"сглаживание выше {limit}: прирост умножен на {limit}/Rs = {factor}")
    after = change.after.rating
    if change.ceiling is not None and change.raw_delta > 0:
        ceiling = _num(change.ceiling)
        en.append(f"all opponents are bots: a gain cannot pass their highest maximum {ceiling}")
        ru.append(f"все соперники боты: прирост не поднимает выше их наибольшего максимума {ceiling}")
    if change.before.bot_max is not None and after == change.before.bot_max:
        level_max = _num(change.before.bot_max)
        en.append(f"a bot's rating stays at most its level's maximum {level_max}")
        ru.append(f"рейтинг бота не выше максимума уровня {level_max}")
    after_t = _num(after)
    en.append(f"new rating {rs_t} → {after_t}")
    ru.append(f"новый рейтинг {rs_t} → {after_t}")
    if change.after.league == PRO and change.before.league != PRO:
        en.append(f"reached {t['pro_threshold']}: promoted to the Pro league for good")
        ru.append(f"достигнут рейтинг {t['pro_threshold']}: переход в Про-лигу навсегда")
    return Explanation("; ".join(en), "; ".join(ru))


# --- validation -----------------------------------------------------------------------------------------------------


def _validate_whists(whists: Any, where: str) -> None:
    """`rules/preferans.md`, "What a deal's whists are": 2 to 4 players, whole whists summing to zero."""
    if not isinstance(whists, Mapping):
        raise EngineError(where, "is not an object of player: whists")
    count = len(whists)
    if count < 2 or count > 4:
        raise EngineError(where, f"a table has 2 to 4 players, this one has {count}")
    total = 0
    for player, value in whists.items():
        if not isinstance(player, str) or not player:
            raise EngineError(where, f"player {player!r} is not a non-empty string")
        value = integral(value)
        if not is_whole(value):
            raise EngineError(where, f'player "{player}": {value!r} is not a whole number of whists')
        total += value
    if total != 0:
        raise EngineError(where, f"the whists sum to {total}, not to zero")


def _validate_deal(deal: DealWhists, where: str, tables: dict[str, frozenset[str]]) -> None:
    if not isinstance(deal, DealWhists):
        raise EngineError(where, "not a deal")
    parse_str(deal.game, f"{where}.game")
    whists = deal.whists
    _validate_whists(whists, f"{where}.whists")
    seated = frozenset(whists)
    if deal.players is not None:
        table = frozenset(deal.players)
        if len(table) != len(deal.players):
            raise EngineError(f"{where}.players", "names a player twice")
    else:
        table = tables.get(deal.game, seated)
    if not seated <= table:
        for player in whists:
            if player not in table:
                listed = ", ".join(sorted(table))
                raise EngineError(
                    f"{where}.whists", f'player "{player}" is not at the table of game "{deal.game}" ({listed})'
                )
    tables[deal.game] = table


# --- manage.py rate -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PreferansDocument:
    """A ``preferans`` document read and checked: the starting states and the deals in order."""

    states: dict[str, PlayerState]
    bots: dict[str, float]
    deals: list[DealWhists]


def document_errors(doc: Any, settings: PreferansSettings = DEFAULT_SETTINGS) -> list[EngineError]:
    """Every mistake of a ``preferans`` document, each naming its field (``rate_document`` stops at the first)."""
    return read_document(doc, settings)[1]


def read_document(
    doc: Any, settings: PreferansSettings = DEFAULT_SETTINGS
) -> tuple[PreferansDocument | None, list[EngineError]]:
    """The document as starting states and deals, and every mistake found (the document is None if any).

    Accepted besides the documented input: ``max_ratings`` and ``leagues`` (a starting peak and league: the
    federation's list carried over, or an earlier output continued; see the module's decisions), a deal's
    ``players`` (its table). Other keys are left to the caller (the site's history reads ``players``' names,
    ``ratings_date`` and a deal's ``date``).
    """
    if not isinstance(doc, dict):
        return None, [EngineError("document", "is not an object")]
    errors: list[EngineError] = []
    system = doc.get("system", "preferans")
    if system != "preferans":
        errors.append(EngineError("system", f'{system!r} is not "preferans"'))
    maps: dict[str, dict[str, Any]] = {}
    for key, parse_value, what in (
        ("ratings", parse_number, "number"),
        ("bots", parse_number, "number"),
        ("max_ratings", parse_number, "number"),
        ("leagues", _parse_league, "league"),
    ):
        raw = doc.get(key, {})
        maps[key] = {}
        if not isinstance(raw, dict):
            errors.append(EngineError(key, f"is not an object of player: {what}"))
            continue
        for name, value in raw.items():
            try:
                value = parse_value(value, f"{key}.{name}")
            except EngineError as error:
                errors.append(error)
                continue
            maps[key][name] = float(value) if what == "number" else value
    ratings, bots, peaks, leagues = maps["ratings"], maps["bots"], maps["max_ratings"], maps["leagues"]
    deals: list[DealWhists] = []
    raw_deals = doc.get("deals", [])
    if not isinstance(raw_deals, list):
        errors.append(EngineError("deals", "is not a list"))
        raw_deals = []
    tables: dict[str, frozenset[str]] = {}
    for index, raw in enumerate(raw_deals):
        where = f"deals[{index}]"
        try:
            deal = _parse_deal(raw, index, where)
            _validate_deal(deal, where, tables)
        except EngineError as error:
            errors.append(error)
            continue
        deals.append(deal)
    names = dict.fromkeys([*ratings, *bots, *peaks, *leagues])
    for deal in deals:
        names.update(dict.fromkeys(deal.whists))
    states: dict[str, PlayerState] = {}
    for name in names:
        level_max = bots.get(name)
        rating = ratings.get(name, settings.start_rating if level_max is None else level_max)
        if level_max is not None:
            rating = min(rating, level_max)
        peak = peaks.get(name, rating)
        if peak < rating:
            errors.append(EngineError(f"max_ratings.{name}", f"{peak:g} is below the starting rating {rating:g}"))
            peak = rating
        league = league_for(AMATEUR, peak, settings)
        given = leagues.get(name)
        if given == AMATEUR and league == PRO:
            errors.append(
                EngineError(
                    f"leagues.{name}",
                    f'"amateur", but the peak {peak:g} reached the Pro threshold {settings.pro_threshold:g} '
                    "(a player who reaches it is Pro for good)",
                )
            )
        states[name] = PlayerState(rating=rating, max_rating=peak, league=given or league, bot_max=level_max)
    if errors:
        return None, errors
    return PreferansDocument(states=states, bots=bots, deals=deals), []


def _parse_deal(raw: Any, index: int, where: str) -> DealWhists:
    parse_object(raw, where)
    whists = require(raw, "whists", where)
    game = raw.get("game", "")
    if not isinstance(game, str):
        raise EngineError(f"{where}.game", f"{game!r} is not a string")
    players = raw.get("players")
    if players is not None:
        if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
            raise EngineError(f"{where}.players", "is not a list of player ids")
        players = tuple(players)
    if isinstance(whists, Mapping):
        whists = {name: integral(value) for name, value in whists.items()}
    return DealWhists(game=game or f"#{index}", whists=whists, players=players)


def rate_document(doc: dict) -> dict:
    """The ``preferans`` section of `RATE_CLI.md` (with ``read_document``'s optional keys).

    The output holds every player named anywhere, bots included, at full float precision, and ``deals`` with each
    player's change and explanation.
    """
    parse_object(doc, "document")
    read, errors = read_document(doc)
    if errors:
        raise errors[0]
    ledger = rate_deals(read.deals, read.states, DEFAULT_SETTINGS, bots=read.bots, record=True)
    final = ledger.players
    return {
        "ratings": {name: state.rating for name, state in final.items()},
        "max_ratings": {name: state.max_rating for name, state in final.items()},
        "leagues": {name: state.league for name, state in final.items()},
        "deals": [
            {
                "game": deal.game,
                "changes": [
                    {
                        "player": change.player,
                        "before": change.before.rating,
                        "delta": change.delta,
                        "after": change.after.rating,
                        "explanation": change.explanation.as_dict(),
                    }
                    for change in outcome.changes
                ],
            }
            for deal, outcome in zip(read.deals, ledger.outcomes or (), strict=True)
        ],
    }


def _parse_league(value: Any, where: str) -> str:
    if value not in LEAGUES:
        raise EngineError(where, f'{value!r} is neither "amateur" nor "pro"')
    return value


__all__ = [
    "AMATEUR",
    "DEFAULT_SETTINGS",
    "PRO",
    "DealChange",
    "DealOutcome",
    "DealRun",
    "DealWhists",
    "Ledger",
    "PlayerState",
    "PreferansDocument",
    "PreferansSettings",
    "deal_delta",
    "document_errors",
    "expected_whists",
    "league_for",
    "new_player",
    "rate_deal",
    "rate_deals",
    "rate_document",
    "read_document",
    "table_rating",
]
