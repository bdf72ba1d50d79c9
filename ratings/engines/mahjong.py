"""Riichi mahjong ratings of the Russian federation: RR, CRR and the online rating (`rules/mahjong.md`).

Plain data in, plain data out: the caller (a Django service, ``manage.py rate``, a benchmark) turns its rows into the
frozen dataclasses below, calls :func:`compute_list`, and stores what comes back. Nothing here imports Django.

Every rounded quantity of the rules is kept as an exact integer, so that the lists agree with the federation's to
the cent and no float error can move a player across a rounding edge or change the best subset of part A:

- W and deltas in hundredths (``*_cents``), since both are published with 2 decimals and used rounded;
- A in hundredths of a percent (``*_bp``: 85.71 % is 8571), since the published percentage is the value used;
- W·A in millionths (the product of the two above), since the denominators use 2-decimal W times A unrounded.

Parts A and B and the rating are exact fractions until they are shown; the ranking uses the unrounded rating.

Decisions taken here where `rules/mahjong.md` is silent (each also said where it applies):

- A tournament abroad (its country is not the list's) counts in RR and CRR only with EMA status and a player of the
  list's country among its results, in every period; it still needs the list's minimum players and hanchans, while
  EMA status stands in for the federation's accreditation and openness.
- Online tournaments never count in RR or CRR, and only online tournaments count in the online list.
- RR's "until 2017-12-31" rule and the online list's 2021-05-19 start for rank-restricted tournaments are decided
  by the tournament's end date, the date its A is counted from.
- A rank-restricted tournament needs the staff flag ``rank_restriction_legitimate`` as well; lists without a start
  date for rank-restricted tournaments (RR, CRR) never take them.
- A tournament that ends after the rating date does not count yet; one whose A is 0 no longer counts. Both are
  listed among the excluded tournaments with that reason.
- A "rated player" (a tournament needs one to fill a MAXK place) is a result with a profile who is counted in this
  list (of the country for RR and CRR, anyone for online), whether or not that player reaches 2 tournaments.
- The first stage of a cut-off tournament has N1 = N players. Its W_avg needs the hanchans of all N1 players: they
  come from the stages' player counts when every later stage gives one, otherwise from the results, where a
  participant missing from the results is taken to have played the first stage only.
- Among subsets of part A (or deltas of part B) that tie exactly, the tournament with the larger delta, then the
  later end date, then the smaller id is taken, so that a snapshot never changes between two runs.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import date
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dateutil.relativedelta import relativedelta

from ratings.engines.common import EngineError, Explanation, round_half_away

CENT = 100
"""W and deltas are integers in hundredths."""
A_FULL = 10_000
"""A is an integer in hundredths of a percent: 10 000 is A = 1."""
WA_UNIT = CENT * A_FULL
"""W·A is an integer in millionths (hundredths times hundredths of a percent)."""

FULL_WEIGHT_TOURNAMENTS = 5
"""`rules/mahjong.md`, "Part A": a player reaches full weight after 5 tournaments."""

# `rules/mahjong.md`, "Age coefficient A": the published percentages, 1 - step / 7, each held for 2 months.
_A_STEPS_BP = (10_000, 8571, 7143, 5714, 4286, 2857, 1429, 0)


# ---------------------------------------------------------------------------------------------------------------
# Per tournament: R, K_hanchans, K_players, W, A, delta
# ---------------------------------------------------------------------------------------------------------------


def base_rank(players: int, place: int) -> float:
    """R of a place among N players, unrounded (100 players, 25th place: 757.5757..., shown as 757.58).

    `rules/mahjong.md`, "Base rank R": R = (N - place) / (N - 1) * 1000. A tournament of one player has no ranking
    to speak of; its only player gets 1000 so that the formula never divides by zero.
    """
    if players <= 1:
        return 1000.0
    return (players - place) * 1000 / (players - 1)


def k_hanchans_cents(hanchans: int) -> int:
    """K_hanchans in hundredths: each hanchan adds less than the one before, up to 2.80.

    `rules/mahjong.md`, "Tournament coefficient W", the K_hanchans table:
    0..8: 0.20 s; 9..12: 1.60 + 0.15 (s - 8); 13..16: 2.20 + 0.10 (s - 12); 17..20: 2.60 + 0.05 (s - 16); over 20: 2.80.
    """
    s = max(hanchans, 0)
    if s <= 8:
        return 20 * s
    if s <= 12:
        return 160 + 15 * (s - 8)
    if s <= 16:
        return 220 + 10 * (s - 12)
    if s <= 20:
        return 260 + 5 * (s - 16)
    return 280


def k_players_cents(players: int) -> int:
    """K_players in hundredths, by whole groups of four (30 players: m = 7, 0.70).

    `rules/mahjong.md`, "Tournament coefficient W", the K_players table with m = N // 4:
    up to 60: 0.10 m; 61..120: 1.50 + 0.05 (m - 15); 121..180: 2.25 + 0.01 (m - 30); over 180: 2.40.
    """
    m = max(players, 0) // 4
    if players <= 60:
        return 10 * m
    if players <= 120:
        return 150 + 5 * (m - 15)
    if players <= 180:
        return 225 + (m - 30)
    return 240


def k_hanchans(hanchans: int) -> float:
    """K_hanchans as published (10 hanchans: 1.90)."""
    return k_hanchans_cents(hanchans) / CENT


def k_players(players: int) -> float:
    """K_players as published (100 players: 2.00)."""
    return k_players_cents(players) / CENT


def _div_round_half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded half up, exactly, for a non-negative numerator and a positive denominator."""
    return (2 * numerator + denominator) // (2 * denominator)


def cutoff_w_avg_cents(first_stage_hanchans: Iterable[int]) -> int:
    """W_avg of a cut-off tournament in hundredths, from the hanchans every first-stage player played.

    `rules/mahjong.md`, "Tournaments with cut-offs": W_avg = (sum over all N1 players of K_hanchans(h_i)) / N1,
    rounded to 2 decimals before use (28 players, 8 finalists of 10 + 10 hanchans: 2.16).
    """
    total = 0
    count = 0
    for hanchans in first_stage_hanchans:
        total += k_hanchans_cents(hanchans)
        count += 1
    if count == 0:
        return 0
    return _div_round_half_up(total, count)


def cutoff_w_cents(k_players_c: int, hanchans: int, w_avg_c: int) -> int:
    """W in hundredths of a player who played ``hanchans`` in a cut-off tournament.

    `rules/mahjong.md`, "Tournaments with cut-offs": W = K_players(N1) + (K_hanchans(h) + W_avg) / 2, rounded to
    2 decimals (0.7 + (1.9 + 2.16) / 2 = 2.73).
    """
    return k_players_c + _div_round_half_up(k_hanchans_cents(hanchans) + w_avg_c, 2)


def age_months(end_date: date, as_of: date) -> int:
    """Whole calendar months from a tournament's end to the rating date, as ``relativedelta`` counts them.

    `rules/mahjong.md`, "Age coefficient A": the one-year anniversary itself is 12 months. Negative when the
    tournament ends after the rating date.
    """
    delta = relativedelta(as_of, end_date)
    return delta.years * 12 + delta.months


def age_bp_for_months(months: int) -> int:
    """A in hundredths of a percent after ``months`` whole months.

    `rules/mahjong.md`, "Age coefficient A": m < 12: 1; 12 <= m < 24: 1 - (floor((m - 12) / 2) + 1) / 7, published
    as 85.71, 71.43, 57.14, 42.86, 28.57, 14.29 %; m >= 24: 0.
    """
    if months < 12:
        return A_FULL
    if months >= 24:
        return 0
    return _A_STEPS_BP[(months - 12) // 2 + 1]


def age_bp(end_date: date, as_of: date) -> int:
    """A in hundredths of a percent of a tournament that ended on ``end_date``, as of ``as_of`` (0 before it ends)."""
    if end_date > as_of:
        return 0
    return age_bp_for_months(age_months(end_date, as_of))


@lru_cache(maxsize=8192)
def age_steps(end_date: date) -> tuple[date, ...]:
    """The dates on which a tournament's A steps down: 12, 14, ..., 22 and 24 whole months after its end.

    Whole months as ``relativedelta`` counts them are the largest m with ``end_date + relativedelta(months=m) <= d``,
    so on every date A is the step reached by the number of these dates on or before it (:func:`age_bp_by_steps`).
    Many dates of one tournament then need no month counting; the steps of an end date are kept (several lists and
    tournaments share them).
    """
    return tuple(end_date + relativedelta(months=months) for months in range(12, 25, 2))


def age_bp_by_steps(end_date: date, steps: Sequence[date], as_of: date) -> int:
    """:func:`age_bp` from the tournament's :func:`age_steps`: the same value, by a binary search."""
    if end_date > as_of:
        return 0
    return _A_STEPS_BP[bisect_right(steps, as_of)]


def age_coefficient(end_date: date, as_of: date) -> float:
    """A as used in the formulas (85.71 % is 0.8571)."""
    return age_bp(end_date, as_of) / A_FULL


def delta_cents(w_c: int, players: int, place: int, a_bp: int) -> int:
    """A player's delta W·R·A in hundredths, rounded half up from the unrounded R.

    `rules/mahjong.md`, "Delta of a player in a tournament": delta = W * R * A, rounded to 2 decimals.
    In integers, with W in hundredths and A in hundredths of a percent:
    (W_c / 100) * ((N - place) * 1000 / (N - 1)) * (A_bp / 10 000) * 100 = W_c (N - place) A_bp / (10 (N - 1)).
    """
    if players <= 1:
        return _div_round_half_up(w_c * 1000 * a_bp, 10_000)
    return _div_round_half_up(w_c * (players - place) * a_bp, 10 * (players - 1))


def part_a_size(tournaments: int) -> int:
    """How many tournaments part A takes out of n: all up to 5, then 5 + ceil(0.8 (n - 5)).

    `rules/mahjong.md`, "Part A": 10 -> 9, 11 -> 10, 15 -> 13, 20 -> 17, 25 -> 21. In integers, ceil(4 (n - 5) / 5).
    """
    if tournaments <= FULL_WEIGHT_TOURNAMENTS:
        return tournaments
    extra = tournaments - FULL_WEIGHT_TOURNAMENTS
    return FULL_WEIGHT_TOURNAMENTS + (4 * extra + 4) // 5


def best_subset(deltas: Sequence[int], weights: Sequence[int], k: int) -> tuple[int, ...]:
    """Indices of the k items with the highest sum(deltas) / sum(weights), exactly, in polynomial time.

    `rules/mahjong.md`, "Part A": the best k are the subset of size k with the highest weighted mean (the
    federation tries every combination, which is exponential). Dinkelbach's iteration on the mean: for a candidate
    mean lambda = p / q, the subset maximising sum(delta_i - lambda weight_i) is the k largest of
    delta_i q - p weight_i; when that subset's own mean does not exceed lambda, lambda is the optimum (its maximum
    is 0, reached by the current subset). The means rise strictly, so it stops; in practice after 2 to 4 sorts.
    All arithmetic is on integers, so ties and rounding cannot mislead it.

    Ties are broken by position: among items equally good at the optimum the earlier one is taken, so the caller
    orders the items by preference. Weights must be positive.
    """
    count = len(deltas)
    if len(weights) != count:
        raise EngineError("weights", f"{len(weights)} weights for {count} deltas")
    if any(weight <= 0 for weight in weights):
        raise EngineError("weights", "every weight W·A must be positive")
    if k >= count:
        return tuple(range(count))
    if k <= 0:
        return ()
    p, q = 0, 1
    first = True
    while True:
        ranked = sorted(range(count), key=lambda i: deltas[i] * q - p * weights[i], reverse=True)
        top = ranked[:k]
        top_p = sum(deltas[i] for i in top)
        top_q = sum(weights[i] for i in top)
        if not first and top_p * q <= p * top_q:
            return tuple(sorted(top))
        p, q, first = top_p, top_q, False


# ---------------------------------------------------------------------------------------------------------------
# Input data
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """A player named in the results. ``name`` orders players whose ratings are equal (the id when empty)."""

    id: str
    country: str
    name: str = ""


@dataclass(frozen=True)
class Result:
    """One participant's place. ``player`` is None for a participant without a profile (counted in N only).

    ``hanchans`` is what this player played; it is required in a cut-off tournament and ignored otherwise.
    """

    player: str | None
    place: int
    hanchans: int | None = None


@dataclass(frozen=True)
class Stage:
    """One stage of a cut-off tournament; ``players`` is how many started it, when known."""

    hanchans: int
    players: int | None = None


@dataclass(frozen=True)
class Tournament:
    """A tournament as the lists see it.

    ``players`` is N (substitutes and players without a profile included). ``hanchans`` is the tournament's length,
    the sum of its stages when it has any. The flags are what federation staff set (`rules/mahjong.md`, "The three
    lists"): accreditation, openness, EMA status, online, rank restriction and whether that restriction is
    legitimate.
    """

    id: str
    end_date: date
    players: int
    hanchans: int
    country: str
    results: tuple[Result, ...] = ()
    stages: tuple[Stage, ...] = ()
    ema: bool = False
    accredited: bool = False
    open: bool = False
    online: bool = False
    rank_restricted: bool = False
    rank_restriction_legitimate: bool = False
    name: str = ""

    @property
    def is_cutoff(self) -> bool:
        return bool(self.stages)


@dataclass(frozen=True)
class ListSettings:
    """The rules of one list, with the values of `rules/mahjong.md`, "The three lists", as defaults.

    ``online``: the list takes online tournaments only (True) or offline ones only (False).
    ``full_rules_from``: tournaments that end before it need only ``min_players`` (RR before 2018); None: always the
    full rules. ``ema_abroad``: EMA tournaments abroad with a player of ``country`` count.
    ``rank_restricted_from``: rank-restricted tournaments that end on or after it count when judged legitimate;
    None: never. ``lists_everyone``: every player is listed (online), otherwise only players of ``country``.
    """

    code: str = "rr"
    country: str = "RU"
    online: bool = False
    min_players: int = 16
    min_hanchans: int = 4
    full_rules_from: date | None = date(2018, 1, 1)
    requires_accreditation: bool = True
    requires_open: bool = True
    ema_abroad: bool = True
    rank_restricted_from: date | None = None
    part_b_count: int = 4
    lists_everyone: bool = False
    min_tournaments: int = 2


RR = ListSettings()
CRR = ListSettings(
    code="crr", min_players=12, min_hanchans=3, full_rules_from=None, requires_accreditation=False, requires_open=False
)
ONLINE = ListSettings(
    code="online",
    online=True,
    min_players=12,
    min_hanchans=3,
    full_rules_from=None,
    requires_accreditation=False,
    requires_open=False,
    ema_abroad=False,
    rank_restricted_from=date(2021, 5, 19),
    part_b_count=3,
    lists_everyone=True,
)
PRESETS: dict[str, ListSettings] = {"rr": RR, "crr": CRR, "online": ONLINE}
SYSTEMS: dict[str, ListSettings] = {"mahjong-rr": RR, "mahjong-crr": CRR, "mahjong-online": ONLINE}


def list_settings_from_params(params: Mapping[str, Any], *, preset: str = "rr") -> ListSettings:
    """A list's settings from the parameters stored with it (a ``RatingList`` row), on top of a preset.

    Dates may be ISO strings; an unknown key or a value of the wrong type is an :class:`EngineError` naming it.
    """
    if preset not in PRESETS:
        raise EngineError("preset", f"{preset!r} is not one of {', '.join(PRESETS)}")
    base = PRESETS[preset]
    known = {f.name: f for f in fields(ListSettings)}
    changes: dict[str, Any] = {}
    for key, value in params.items():
        if key not in known:
            raise EngineError(key, "is not a setting of a mahjong list")
        current = getattr(base, key)
        if key in ("full_rules_from", "rank_restricted_from"):
            changes[key] = None if value is None else _parse_date(value, key)
        elif isinstance(current, bool):
            changes[key] = _parse_bool(value, key)
        elif isinstance(current, int):
            changes[key] = _parse_int(value, key, minimum=0 if key != "part_b_count" else 1)
        else:
            changes[key] = _parse_str(value, key)
    return replace(base, **changes)


# ---------------------------------------------------------------------------------------------------------------
# Coefficients of one tournament and its eligibility
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Coefficients:
    """W of a tournament: one value for a plain tournament, one per hanchans played for a cut-off one."""

    k_players_cents: int
    k_hanchans_cents: int
    w_avg_cents: int | None
    """None for a plain tournament."""

    def w_cents(self, hanchans: int | None = None) -> int:
        """W of a player who played ``hanchans`` (ignored for a plain tournament), in hundredths."""
        if self.w_avg_cents is None or hanchans is None:
            return self.finalist_w_cents
        return cutoff_w_cents(self.k_players_cents, hanchans, self.w_avg_cents)

    @property
    def finalist_w_cents(self) -> int:
        """W of a plain tournament, or of a cut-off tournament's finalists (its MAXK value, "Part B")."""
        if self.w_avg_cents is None:
            return self.k_players_cents + self.k_hanchans_cents
        return self.k_players_cents + _div_round_half_up(self.k_hanchans_cents + self.w_avg_cents, 2)

    @property
    def k_players(self) -> float:
        return self.k_players_cents / CENT

    @property
    def k_hanchans(self) -> float:
        return self.k_hanchans_cents / CENT

    @property
    def w_avg(self) -> float | None:
        return None if self.w_avg_cents is None else self.w_avg_cents / CENT

    @property
    def finalist_w(self) -> float:
        return self.finalist_w_cents / CENT


def _first_stage_hanchans(tournament: Tournament) -> list[int]:
    """The hanchans of every first-stage player of a cut-off tournament (N1 of them); see the module's decisions."""
    stages = tournament.stages
    later_counts = [stage.players for stage in stages[1:]]
    if later_counts and all(count is not None for count in later_counts):
        starts = [tournament.players, *later_counts]
        hanchans: list[int] = []
        played = 0
        for index, stage in enumerate(stages):
            played += stage.hanchans
            leaving = starts[index] - (starts[index + 1] if index + 1 < len(starts) else 0)
            hanchans.extend([played] * leaving)
        return hanchans
    listed = [result.hanchans or stages[0].hanchans for result in tournament.results]
    return listed + [stages[0].hanchans] * (tournament.players - len(listed))


def tournament_coefficients(tournament: Tournament) -> Coefficients:
    """K_players, K_hanchans and (for cut-off tournaments) W_avg, from which every participant's W follows.

    `rules/mahjong.md`, "Tournament coefficient W" and "Tournaments with cut-offs".
    """
    kp = k_players_cents(tournament.players)
    kh = k_hanchans_cents(tournament.hanchans)
    if not tournament.is_cutoff:
        return Coefficients(kp, kh, None)
    return Coefficients(kp, kh, cutoff_w_avg_cents(_first_stage_hanchans(tournament)))


def _reason(en: str, ru: str) -> Explanation:
    return Explanation(en=en, ru=ru)


def _country_of(player: str, countries: Mapping[str, str], settings: ListSettings) -> str:
    return countries.get(player, settings.country)


def is_rated(player: str | None, settings: ListSettings, countries: Mapping[str, str]) -> bool:
    """Whether a result's player is counted in this list: a profile, and of the list's country unless online."""
    if player is None:
        return False
    return settings.lists_everyone or _country_of(player, countries, settings) == settings.country


def eligibility(
    tournament: Tournament, settings: ListSettings, countries: Mapping[str, str] | None = None
) -> tuple[Explanation, ...]:
    """Why a tournament does not count in a list, in both languages; empty when it counts.

    `rules/mahjong.md`, "The three lists", with the module's decisions. ``countries`` maps player ids to countries
    (anyone not in it is of the list's country); it matters for EMA tournaments abroad. Every failing rule is
    given, not just the first, so that staff see at once what to fix. The age of the tournament is not judged here:
    see :func:`compute_list`.
    """
    countries = countries or {}
    reasons: list[Explanation] = []
    if settings.online and not tournament.online:
        reasons.append(_reason("not an online tournament", "не онлайн-турнир"))
    if not settings.online and tournament.online:
        reasons.append(_reason("an online tournament", "онлайн-турнир"))

    abroad = not settings.online and tournament.country != settings.country
    if abroad:
        if not settings.ema_abroad or not tournament.ema:
            reasons.append(_reason("a tournament abroad without EMA status", "зарубежный турнир без статуса EMA"))
        elif not any(
            result.player is not None and _country_of(result.player, countries, settings) == settings.country
            for result in tournament.results
        ):
            reasons.append(
                _reason(
                    f"an EMA tournament abroad without a player from {settings.country}",
                    f"зарубежный турнир EMA без игроков из {settings.country}",
                )
            )

    if tournament.players < settings.min_players:
        reasons.append(_reason(f"fewer than {settings.min_players} players", f"меньше {settings.min_players} игроков"))
    full_rules = settings.full_rules_from is None or tournament.end_date >= settings.full_rules_from
    if full_rules:
        if tournament.hanchans < settings.min_hanchans:
            reasons.append(
                _reason(f"fewer than {settings.min_hanchans} hanchans", f"меньше {settings.min_hanchans} ханчанов")
            )
        # EMA status abroad stands in for the federation's own judgement of accreditation and openness.
        if not abroad:
            if settings.requires_accreditation and not tournament.accredited:
                reasons.append(_reason("not accredited by the federation", "не аккредитован федерацией"))
            if settings.requires_open and not tournament.open:
                reasons.append(_reason("not open", "не открытый"))

    if tournament.rank_restricted:
        start = settings.rank_restricted_from
        if start is None:
            reasons.append(_reason("restricted by rank", "ограничение по рангу"))
        elif tournament.end_date < start:
            reasons.append(
                _reason(
                    f"restricted by rank before {start.isoformat()}",
                    f"ограничение по рангу до {start.strftime('%d.%m.%Y')}",
                )
            )
        elif not tournament.rank_restriction_legitimate:
            reasons.append(
                _reason("rank restriction not judged legitimate", "ограничение по рангу не признано легитимным")
            )
    return tuple(reasons)


# ---------------------------------------------------------------------------------------------------------------
# Validation shared by the engine and rate_document
# ---------------------------------------------------------------------------------------------------------------


def validate_tournament(tournament: Tournament, path: str) -> None:
    """Raise :class:`EngineError` naming the field (``tournaments[3].results[7].place``) when the data is impossible."""
    if tournament.players < 2:
        raise EngineError(f"{path}.players", f"{tournament.players} is fewer than 2 players")
    if tournament.hanchans < 1:
        raise EngineError(f"{path}.hanchans", f"{tournament.hanchans} is fewer than 1 hanchan")
    stages = tournament.stages
    if stages:
        for index, stage in enumerate(stages):
            if stage.hanchans < 1:
                raise EngineError(f"{path}.stages[{index}].hanchans", f"{stage.hanchans} is fewer than 1 hanchan")
        total = sum(stage.hanchans for stage in stages)
        if tournament.hanchans != total:
            raise EngineError(f"{path}.hanchans", f"{tournament.hanchans} is not the sum of the stages ({total})")
        if stages[0].players is not None and stages[0].players != tournament.players:
            raise EngineError(
                f"{path}.stages[0].players",
                f"{stages[0].players} differs from the tournament's players ({tournament.players})",
            )
        later = [stage.players for stage in stages[1:]]
        if any(count is not None for count in later) and any(count is None for count in later):
            missing = 1 + later.index(None)
            raise EngineError(f"{path}.stages[{missing}].players", "missing; give players for every stage or for none")
        previous = tournament.players
        for index, count in enumerate(later, start=1):
            if count is not None:
                if count < 1 or count > previous:
                    raise EngineError(
                        f"{path}.stages[{index}].players", f"{count} is not between 1 and the stage before ({previous})"
                    )
                previous = count
    if len(tournament.results) > tournament.players:
        raise EngineError(f"{path}.results", f"{len(tournament.results)} results but players is {tournament.players}")
    seen: dict[str, int] = {}
    for index, result in enumerate(tournament.results):
        where = f"{path}.results[{index}]"
        if not 1 <= result.place <= tournament.players:
            if result.place > tournament.players:
                message = f"{result.place} is larger than players ({tournament.players})"
            else:
                message = f"{result.place} is smaller than 1"
            raise EngineError(f"{where}.place", message)
        if result.player is not None:
            if result.player in seen:
                raise EngineError(
                    f"{where}.player",
                    f"{result.player!r} appears twice in this tournament (results[{seen[result.player]}])",
                )
            seen[result.player] = index
        if stages and result.hanchans is None:
            raise EngineError(f"{where}.hanchans", "missing; a tournament with stages needs each result's hanchans")
        if result.hanchans is not None:
            if result.hanchans < 1:
                raise EngineError(f"{where}.hanchans", f"{result.hanchans} is fewer than 1 hanchan")
            if result.hanchans > tournament.hanchans:
                holds = "the stages hold" if stages else "the tournament has"
                raise EngineError(
                    f"{where}.hanchans", f"{result.hanchans} is more than {holds} ({tournament.hanchans})"
                )


# ---------------------------------------------------------------------------------------------------------------
# The list
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """One player's numbers in one counted tournament: everything a snapshot keeps to explain the rating."""

    tournament: str
    end_date: date
    place: int
    players: int
    hanchans: int
    """Hanchans this player played (the tournament's length for a plain tournament)."""
    w: float
    r: float
    """Unrounded; show it with 2 decimals."""
    a: float
    """As used: 0.8571 for the published 85.71 %."""
    delta: float
    wa: float
    """W·A, this tournament's term of the part A denominator (unrounded product of the 2-decimal W and A)."""
    in_part_a: bool
    in_part_b: bool
    w_cents: int = field(repr=False)
    a_bp: int = field(repr=False)
    delta_cents: int = field(repr=False)

    @property
    def a_percent(self) -> float:
        """A as published (85.71)."""
        return self.a_bp / CENT


@dataclass(frozen=True)
class MaxK:
    """One of the MAXK places of part B: a tournament's W·A, or 1 for a missing tournament (``tournament`` None)."""

    tournament: str | None
    w: float
    a: float
    wa: float
    wa_units: int = field(repr=False)


def _maxk(tournament: str | None, w_c: int, a_bp: int) -> MaxK:
    return MaxK(tournament=tournament, w=w_c / CENT, a=a_bp / A_FULL, wa=w_c * a_bp / WA_UNIT, wa_units=w_c * a_bp)


@dataclass(frozen=True)
class Entry:
    """A listed player: rank, rating, both parts, the tournaments chosen for each, and the numbers of every one."""

    rank: int
    player: str
    name: str
    rating: float
    part_a: float
    part_b: float
    rating_unrounded: float
    tournaments: int
    """n, the player's counted tournaments with A > 0."""
    part_a_size: int
    scores: tuple[Score, ...]
    """Every counted tournament, latest first."""
    part_a_tournaments: tuple[str, ...]
    part_b_tournaments: tuple[str, ...]
    explanation: Explanation


@dataclass(frozen=True)
class Exclusion:
    """A tournament that does not count in this list, with every reason (`rules/mahjong.md`: never silently)."""

    tournament: str
    reasons: tuple[Explanation, ...]

    @property
    def reason(self) -> Explanation:
        return Explanation(
            en="; ".join(reason.en for reason in self.reasons), ru="; ".join(reason.ru for reason in self.reasons)
        )


@dataclass(frozen=True)
class RatingList:
    """A list as of one date: what a snapshot stores."""

    code: str
    as_of: date
    entries: tuple[Entry, ...]
    excluded: tuple[Exclusion, ...]
    counted: tuple[str, ...]
    """Tournaments that count, in the input's order."""
    maxk: tuple[MaxK, ...]
    unlisted: tuple[tuple[str, int], ...]
    """Rated players with results who have too few tournaments to be listed, with their n."""


def _fmt(value: float, digits: int = 2) -> str:
    """A number as the explanations show it: a space between thousands, ``digits`` decimals (4 521.30)."""
    return f"{value:,.{digits}f}".replace(",", " ")


def _fmt_units(units: int, scale: int) -> str:
    """An exact fixed-point integer with every significant decimal, at least two (2.339883, 6.00)."""
    whole, rest = divmod(units, scale)
    decimals = f"{rest:0{len(str(scale)) - 1}d}".rstrip("0").ljust(2, "0")
    return f"{whole:,}".replace(",", " ") + "." + decimals


def _round2(value: Fraction) -> float:
    """An exact non-negative value rounded half up to 2 decimals."""
    return math.floor(value * CENT + Fraction(1, 2)) / CENT


def _round2_ratio(numerator: int, denominator: int) -> float:
    """``numerator / denominator`` (non-negative over positive) rounded half up to 2 decimals; :func:`_round2` on
    the exact fraction, without building it."""
    return _div_round_half_up(numerator * CENT, denominator) / CENT


_Raw = tuple[int, int, str, date, int, int, int, int, int]
"""A player's result while the list is built: (-delta, -end ordinal, tournament, end, place, N, hanchans, W, A).

Sorting these tuples gives the order among equally good tournaments: larger delta, later end, smaller id (see the
module's decisions). Plain tuples, because a list of 5 000 players builds tens of thousands of them.
"""


def _build(cls: type, values: dict[str, Any], **more: Any) -> Any:
    """An instance of a frozen dataclass of this module from the values of all its fields, without its ``__init__``.

    A list of thousands of players builds tens of thousands of :class:`Score` and :class:`Entry` objects, and a
    frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``; these classes have no
    ``__post_init__``, no slots and no defaults to fill, so filling ``__dict__`` gives an equal object.
    """
    instance = object.__new__(cls)
    instance.__dict__.update(values, **more)
    return instance


class _Part:
    """A listed player's numbers that do not depend on MAXK: part A, the deltas of part B, every score, their text.

    They change only when one of the player's tournaments starts or stops counting, is corrected or changes its A;
    :class:`ListState` keeps them from one date to the next otherwise.
    """

    __slots__ = (
        "a_ids",
        "b_ids",
        "best_text",
        "k",
        "lines_en",
        "lines_ru",
        "n",
        "name",
        "player",
        "scores",
        "sum_delta_a",
        "sum_delta_b",
        "sum_wa",
    )

    def __init__(self, **values: Any) -> None:
        for key, value in values.items():
            setattr(self, key, value)


@dataclass(frozen=True)
class _MaxKTotal:
    """The MAXK places of a list as of a date, their sum and the text part B's formula shows for them."""

    maxk: tuple[MaxK, ...]
    units: int
    text: str
    units_text: str


def _maxk_total(candidates: list[tuple[int, int, str, int, int]], settings: ListSettings) -> _MaxKTotal:
    """`rules/mahjong.md`, "Part B": MAXK1..4 are the 4 (online 3) largest W·A of the list's tournaments with a
    rated player; a missing one counts as 1. ``candidates`` are (-W·A, -end ordinal, id, W, A), in any order."""
    chosen = sorted(candidates)[: settings.part_b_count]
    maxk = [_maxk(tid, w, a) for _, _, tid, w, a in chosen]
    maxk.extend(_maxk(None, CENT, A_FULL) for _ in range(settings.part_b_count - len(maxk)))
    units = sum(item.wa_units for item in maxk)
    return _MaxKTotal(
        maxk=tuple(maxk),
        units=units,
        text=" + ".join(_fmt_units(item.wa_units, WA_UNIT) for item in maxk),
        units_text=_fmt_units(units, WA_UNIT),
    )


def _player_part(player: str, name: str, raws: list[_Raw], settings: ListSettings) -> _Part:
    """Part A, the deltas of part B, the scores and the per-tournament and part A lines of the explanation."""
    raws.sort()
    n = len(raws)
    k = part_a_size(n)
    deltas = [-raw[0] for raw in raws]
    weights = [raw[7] * raw[8] for raw in raws]

    # `rules/mahjong.md`, "Part A": part_A = sum(W_i R_i A_i) / sum(W_i A_i) over the best k; with n <= 5 every
    # missing tournament adds 0 to the numerator and 1 to the denominator.
    chosen_a = set(best_subset(deltas, weights, k))
    missing = max(FULL_WEIGHT_TOURNAMENTS - n, 0)
    sum_delta_a = sum(deltas[i] for i in chosen_a)
    sum_wa = sum(weights[i] for i in chosen_a) + missing * WA_UNIT

    # `rules/mahjong.md`, "Part B": the player's 4 (online 3) largest deltas.
    chosen_b = set(range(min(settings.part_b_count, n)))
    sum_delta_b = sum(deltas[i] for i in chosen_b)

    scores = [
        _build(
            Score,
            {
                "tournament": tid,
                "end_date": end,
                "place": place,
                "players": players,
                "hanchans": hanchans,
                "w": w / CENT,
                "r": base_rank(players, place),
                "a": a / A_FULL,
                "delta": -minus_delta / CENT,
                "wa": w * a / WA_UNIT,
                "in_part_a": i in chosen_a,
                "in_part_b": i in chosen_b,
                "w_cents": w,
                "a_bp": a,
                "delta_cents": -minus_delta,
            },
        )
        for i, (minus_delta, _, tid, end, place, players, hanchans, w, a) in enumerate(raws)
    ]
    a_ids = tuple(scores[i].tournament for i in sorted(chosen_a))
    b_ids = tuple(scores[i].tournament for i in sorted(chosen_b))
    scores.sort(key=lambda score: (-score.end_date.toordinal(), score.tournament))
    final_scores = tuple(scores)

    en: list[str] = []
    ru: list[str] = []
    for score in final_scores:
        marks = ("A" if score.in_part_a else "") + ("B" if score.in_part_b else "")
        numbers = f"W {score.w:.2f} · R {_fmt(score.r)} · A {score.a_percent:.2f}% = {_fmt(score.delta)}" + (
            f" [{marks}]" if marks else ""
        )
        en.append(
            f"{score.tournament} ({score.end_date.isoformat()}, place {score.place} of {score.players}): {numbers}"
        )
        ru.append(
            f"{score.tournament} ({score.end_date.isoformat()}, {score.place} место из {score.players}): {numbers}"
        )
    padding_en = f" + {missing} missing, 0 / 1 each" if missing else ""
    padding_ru = f" + {missing} недостающих, по 0 / 1" if missing else ""
    part_a_rounded = _round2_ratio(sum_delta_a * A_FULL, sum_wa)
    numbers_a = f"{_fmt(sum_delta_a / CENT)} / {_fmt_units(sum_wa, WA_UNIT)} = {_fmt(part_a_rounded)}"
    en.append(f"part A (best {k} of {n}{padding_en}) = (Σ W·R·A) / (Σ W·A) = {numbers_a}")
    ru.append(f"часть A (лучшие {k} из {n}{padding_ru}) = (Σ W·R·A) / (Σ W·A) = {numbers_a}")
    count = settings.part_b_count
    best = sorted((score.delta_cents for score in final_scores if score.in_part_b), reverse=True)
    best_text = " + ".join([*(_fmt(delta / CENT) for delta in best), *("0" for _ in range(count - len(best)))])
    return _Part(
        player=player,
        name=name,
        n=n,
        k=k,
        sum_delta_a=sum_delta_a,
        sum_wa=sum_wa,
        sum_delta_b=sum_delta_b,
        scores=final_scores,
        a_ids=a_ids,
        b_ids=b_ids,
        lines_en=en,
        lines_ru=ru,
        best_text=best_text,
    )


def _player_finish(part: _Part, total: _MaxKTotal, settings: ListSettings) -> tuple[Fraction, dict[str, Any]]:
    """The rating of one player and the fields of the :class:`Entry` but its rank, filled in once all are ranked.

    Exact in integers: part A = nA / dA, part B = nB / dB, rating = (nA dB + nB dA) / (2 dA dB).
    """
    numerator_a = part.sum_delta_a * A_FULL
    denominator_a = part.sum_wa
    # `rules/mahjong.md`, "Part B": part_B = (the player's 4 (online 3) largest deltas) / (MAXK1 + ... + MAXK4).
    numerator_b = part.sum_delta_b * A_FULL
    denominator_b = total.units
    # `rules/mahjong.md`, "Result": rating = 0.5 part_A + 0.5 part_B, rounded to 2 decimals.
    numerator = numerator_a * denominator_b + numerator_b * denominator_a
    denominator = 2 * denominator_a * denominator_b
    part_a = _round2_ratio(numerator_a, denominator_a)
    part_b = _round2_ratio(numerator_b, denominator_b)
    rating = _round2_ratio(numerator, denominator)

    count = settings.part_b_count
    numbers_b = (
        f"({part.best_text}) / ({total.text}) = {_fmt(part.sum_delta_b / CENT)} / {total.units_text} = {_fmt(part_b)}"
    )
    numbers = (
        f"0.5 · {_fmt(numerator_a / denominator_a, 4)} + 0.5 · {_fmt(numerator_b / denominator_b, 4)} = {_fmt(rating)}"
    )
    en = [
        *part.lines_en,
        f"part B = (the {count} largest W·R·A) / (MAXK1 + … + MAXK{count}) = {numbers_b}",
        f"rating = 0.5 · part A + 0.5 · part B = {numbers}",
    ]
    ru = [
        *part.lines_ru,
        f"часть B = ({count} наибольших W·R·A) / (MAXK1 + … + MAXK{count}) = {numbers_b}",
        f"рейтинг = 0.5 · часть A + 0.5 · часть B = {numbers}",
    ]
    return Fraction(numerator, denominator), dict(
        player=part.player,
        name=part.name,
        rating=rating,
        part_a=part_a,
        part_b=part_b,
        rating_unrounded=numerator / denominator,
        tournaments=part.n,
        part_a_size=part.k,
        scores=part.scores,
        part_a_tournaments=part.a_ids,
        part_b_tournaments=part.b_ids,
        explanation=Explanation(en="\n".join(en), ru="\n".join(ru)),
    )


def _tournament_raws(
    tournament: Tournament, a: int, coefficients: Coefficients, settings: ListSettings, countries: Mapping[str, str]
) -> list[tuple[str, _Raw]]:
    """Every rated result of a counted tournament with A (hundredths of a percent) as (player, raw)."""
    found: list[tuple[str, _Raw]] = []
    end = tournament.end_date
    minus_end = -end.toordinal()
    for result in tournament.results:
        player = result.player
        if player is None or not is_rated(player, settings, countries):
            continue
        hanchans = result.hanchans if tournament.is_cutoff and result.hanchans else tournament.hanchans
        w = coefficients.w_cents(hanchans if tournament.is_cutoff else None)
        d = delta_cents(w, tournament.players, result.place, a)
        found.append((player, (-d, minus_end, tournament.id, end, result.place, tournament.players, hanchans, w, a)))
    return found


def _rank_exactly(
    ranked: list[tuple[float, str, str, tuple[Fraction, dict[str, Any]]]],
) -> list[tuple[float, str, str, tuple[Fraction, dict[str, Any]]]]:
    """Sort by (-rating, name, id) with the exact rating, comparing fractions only where the floats tie.

    The float of a rating is its correctly rounded value, so a larger exact rating never has a smaller float: the
    order by float is the exact order except inside runs of equal floats, which are sorted again on the exact value.
    """
    ranked.sort(key=lambda item: item[0])
    start = 0
    count = len(ranked)
    while start < count:
        stop = start + 1
        while stop < count and ranked[stop][0] == ranked[start][0]:
            stop += 1
        if stop - start > 1:
            ranked[start:stop] = sorted(ranked[start:stop], key=lambda item: (-item[3][0], item[1], item[2]))
        start = stop
    return ranked


class ListState:
    """:func:`compute_list` for one list on a run of dates, recomputing only what changed since the previous date.

    Feed :meth:`compute` the dates in any order with each date's tournaments (the same objects while they do not
    change: a tournament is taken as corrected when a different object comes with its id). Between two calls, a
    player's part A and the deltas of part B change only when one of the player's tournaments starts or stops
    counting, is corrected, or changes its A; part B of everyone changes only with MAXK. Only those players are
    recomputed; the others keep their numbers, and every player is ranked again. The result of each call equals
    ``compute_list(settings=..., as_of=..., tournaments=..., players=...)`` exactly.

    ``players`` (countries and names) are fixed for the state's life: a player's new country means a new state.
    """

    def __init__(self, *, settings: ListSettings, players: Iterable[Player] = ()) -> None:
        known = tuple(players)
        self.settings = settings
        self._countries = {player.id: player.country for player in known}
        self._names = {player.id: player.name or player.id for player in known}
        self._seen: dict[str, Tournament] = {}
        """Tournament id -> the object last given (validated, its eligibility and coefficients known)."""
        self._reasons: dict[str, tuple[Explanation, ...]] = {}
        self._coefficients: dict[str, Coefficients] = {}
        self._steps: dict[str, tuple[date, ...]] = {}
        self._counted: dict[str, tuple[Tournament, int, list[tuple[str, _Raw]], tuple[int, int, str, int, int] | None]]
        self._counted = {}
        """Tournament id -> (tournament, A, its rated results as (player, raw), its MAXK candidate or None)."""
        self._raws: dict[str, dict[str, _Raw]] = {}
        """Player -> tournament id -> raw, over the counted tournaments."""
        self._parts: dict[str, _Part] = {}
        self._finished: dict[str, tuple[Fraction, dict[str, Any]]] = {}
        self._entries: dict[str, tuple[dict[str, Any], Entry]] = {}
        self._total: _MaxKTotal | None = None

    def compute(self, *, as_of: date, tournaments: Sequence[Tournament]) -> RatingList:
        """The list as of ``as_of``, as :func:`compute_list` returns it."""
        settings = self.settings
        seen_ids: dict[str, int] = {}
        for index, tournament in enumerate(tournaments):
            if tournament.id in seen_ids:
                raise EngineError(
                    f"tournaments[{index}].id",
                    f"{tournament.id!r} appears twice (tournaments[{seen_ids[tournament.id]}])",
                )
            seen_ids[tournament.id] = index
            if self._seen.get(tournament.id) is not tournament:
                validate_tournament(tournament, f"tournaments[{index}]")

        excluded: list[Exclusion] = []
        counted: list[str] = []
        now: dict[str, tuple[Tournament, int]] = {}
        for tournament in tournaments:
            tid = tournament.id
            if self._seen.get(tid) is not tournament:
                self._seen[tid] = tournament
                self._reasons[tid] = eligibility(tournament, settings, self._countries)
                self._coefficients.pop(tid, None)
                self._steps[tid] = age_steps(tournament.end_date)
            reasons = list(self._reasons[tid])
            a = age_bp_by_steps(tournament.end_date, self._steps[tid], as_of)
            if tournament.end_date > as_of:
                reasons.insert(0, _reason("ends after the rating date", "завершается после даты рейтинга"))
            elif a == 0:
                reasons.insert(0, _reason("older than two years", "старше двух лет"))
            if reasons:
                excluded.append(Exclusion(tid, tuple(reasons)))
                continue
            counted.append(tid)
            now[tid] = (tournament, a)

        # What changed since the previous date: the players of those tournaments are recomputed.
        dirty: set[str] = set()
        for tid, (old, old_a, pairs, _candidate) in list(self._counted.items()):
            current = now.get(tid)
            if current is not None and current[0] is old and current[1] == old_a:
                continue
            del self._counted[tid]
            for player, _raw in pairs:
                raws = self._raws[player]
                del raws[tid]
                if not raws:
                    del self._raws[player]
                dirty.add(player)
        for tid, (tournament, a) in now.items():
            if tid in self._counted:
                continue
            coefficients = self._coefficients.get(tid)
            if coefficients is None:
                coefficients = self._coefficients[tid] = tournament_coefficients(tournament)
            pairs = _tournament_raws(tournament, a, coefficients, settings, self._countries)
            candidate = None
            if pairs:
                w = coefficients.finalist_w_cents
                candidate = (-(w * a), -tournament.end_date.toordinal(), tid, w, a)
            self._counted[tid] = (tournament, a, pairs, candidate)
            for player, raw in pairs:
                self._raws.setdefault(player, {})[tid] = raw
                dirty.add(player)

        total = _maxk_total([item[3] for item in self._counted.values() if item[3] is not None], settings)
        if self._total is None or total.maxk != self._total.maxk:
            self._finished.clear()
        self._total = total

        for player in dirty:
            self._finished.pop(player, None)
            raws = self._raws.get(player)
            if raws is not None and len(raws) >= settings.min_tournaments:
                name = self._names.get(player, player)
                self._parts[player] = _player_part(player, name, list(raws.values()), settings)
            else:
                self._parts.pop(player, None)

        ranked: list[tuple[float, str, str, tuple[Fraction, dict[str, Any]]]] = []
        unlisted: list[tuple[str, int]] = []
        for player, raws in self._raws.items():
            if len(raws) < settings.min_tournaments:
                unlisted.append((player, len(raws)))
                continue
            finished = self._finished.get(player)
            if finished is None:
                finished = self._finished[player] = _player_finish(self._parts[player], total, settings)
            ranked.append((-finished[1]["rating_unrounded"], finished[1]["name"], player, finished))
        # `rules/mahjong.md`, "Result": ranked by the unrounded rating, then by name.
        ranked = _rank_exactly(ranked)
        entries: list[Entry] = []
        kept: dict[str, tuple[dict[str, Any], Entry]] = {}
        for rank, (_, _, player, (_, entry_fields)) in enumerate(ranked, start=1):
            previous = self._entries.get(player)
            if previous is not None and previous[0] is entry_fields and previous[1].rank == rank:
                entry = previous[1]
            else:
                entry = _build(Entry, entry_fields, rank=rank)
            kept[player] = (entry_fields, entry)
            entries.append(entry)
        self._entries = kept
        return RatingList(
            code=settings.code,
            as_of=as_of,
            entries=tuple(entries),
            excluded=tuple(excluded),
            counted=tuple(counted),
            maxk=total.maxk,
            unlisted=tuple(sorted(unlisted)),
        )


def compute_list(
    *,
    settings: ListSettings,
    as_of: date,
    tournaments: Sequence[Tournament],
    players: Iterable[Player] = (),
) -> RatingList:
    """The list as of ``as_of``: every listed player's rating, parts, chosen tournaments and numbers.

    ``players`` gives countries and names; a player id found only in results is of the list's country and is named
    by the id. Tournaments may be the whole history: those that do not count are returned as excluded with their
    reasons, including "older than two years" and "ends after the rating date". For many dates of one list,
    :class:`ListState` gives the same lists, recomputing only what changed from one date to the next.
    """
    return ListState(settings=settings, players=players).compute(as_of=as_of, tournaments=tournaments)


# ---------------------------------------------------------------------------------------------------------------
# manage.py rate: the JSON document of `RATE_CLI.md`, "Mahjong"
# ---------------------------------------------------------------------------------------------------------------

_FLAGS = ("ema", "accredited", "open", "online", "rank_restricted", "rank_restriction_legitimate")


def _parse_int(value: Any, path: str, *, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError(path, f"{value!r} is not a whole number")
    if minimum is not None and value < minimum:
        raise EngineError(path, f"{value} is smaller than {minimum}")
    return value


def _parse_str(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value:
        raise EngineError(path, f"{value!r} is not a non-empty string")
    return value


def _parse_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise EngineError(path, f"{value!r} is not true or false")
    return value


def _parse_date(value: Any, path: str) -> date:
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        raise EngineError(path, f"{value!r} is not a date (YYYY-MM-DD)")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise EngineError(path, f"{value!r} is not a date (YYYY-MM-DD)") from None


def _parse_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise EngineError(path, "is not a list")
    return value


def _parse_object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EngineError(path, "is not an object")
    return value


def _require(obj: dict[str, Any], key: str, path: str) -> Any:
    if key not in obj:
        raise EngineError(f"{path}.{key}" if path else key, "missing")
    return obj[key]


def _parse_tournament(raw: Any, path: str, country: str) -> Tournament:
    obj = _parse_object(raw, path)
    stages: list[Stage] = []
    if "stages" in obj:
        for index, raw_stage in enumerate(_parse_list(obj["stages"], f"{path}.stages")):
            stage_path = f"{path}.stages[{index}]"
            stage = _parse_object(raw_stage, stage_path)
            players = stage.get("players")
            stages.append(
                Stage(
                    hanchans=_parse_int(_require(stage, "hanchans", stage_path), f"{stage_path}.hanchans", minimum=1),
                    players=None if players is None else _parse_int(players, f"{stage_path}.players", minimum=1),
                )
            )
        if not stages:
            raise EngineError(f"{path}.stages", "is empty; leave it out for a tournament without cut-offs")
    if stages and "hanchans" not in obj:
        hanchans = sum(stage.hanchans for stage in stages)
    else:
        hanchans = _parse_int(_require(obj, "hanchans", path), f"{path}.hanchans", minimum=1)
    results: list[Result] = []
    for index, raw_result in enumerate(_parse_list(obj.get("results", []), f"{path}.results")):
        result_path = f"{path}.results[{index}]"
        result = _parse_object(raw_result, result_path)
        player = _require(result, "player", result_path)
        played = result.get("hanchans")
        results.append(
            Result(
                player=None if player is None else _parse_str(player, f"{result_path}.player"),
                place=_parse_int(_require(result, "place", result_path), f"{result_path}.place"),
                hanchans=None if played is None else _parse_int(played, f"{result_path}.hanchans"),
            )
        )
    flags = {flag: _parse_bool(obj.get(flag, False), f"{path}.{flag}") for flag in _FLAGS}
    return Tournament(
        id=_parse_str(_require(obj, "id", path), f"{path}.id"),
        end_date=_parse_date(_require(obj, "end_date", path), f"{path}.end_date"),
        players=_parse_int(_require(obj, "players", path), f"{path}.players"),
        hanchans=hanchans,
        country=_parse_str(obj.get("country", country), f"{path}.country"),
        results=tuple(results),
        stages=tuple(stages),
        name=str(obj.get("name", "")),
        **flags,
    )


def _score_dict(score: Score) -> dict[str, Any]:
    return {
        "tournament": score.tournament,
        "place": score.place,
        "players": score.players,
        "hanchans": score.hanchans,
        "w": score.w,
        "r": round_half_away(score.r, 2),
        "a": score.a_percent,
        "delta": score.delta,
        "part_a": score.in_part_a,
        "part_b": score.in_part_b,
    }


def rate_document(doc: dict[str, Any]) -> dict[str, Any]:
    """``manage.py rate`` for ``mahjong-rr``, ``mahjong-crr`` and ``mahjong-online`` (`RATE_CLI.md`, "Mahjong").

    Besides the contract's keys, each list entry carries the chosen tournaments, every tournament's numbers
    (``details``, with A as the published percentage) and the explanation; each excluded tournament carries the
    Russian reason. Tournaments may also give ``rank_restriction_legitimate`` and, per stage, ``players``.
    """
    doc = _parse_object(doc, "document")
    system = _require(doc, "system", "")
    if system not in SYSTEMS:
        raise EngineError("system", f"{system!r} is not one of {', '.join(SYSTEMS)}")
    as_of = _parse_date(_require(doc, "as_of", ""), "as_of")
    country = _parse_str(doc.get("country", SYSTEMS[system].country), "country")
    settings = replace(SYSTEMS[system], country=country)

    players: list[Player] = []
    seen_players: set[str] = set()
    for index, raw in enumerate(_parse_list(doc.get("players", []), "players")):
        path = f"players[{index}]"
        obj = _parse_object(raw, path)
        player_id = _parse_str(_require(obj, "id", path), f"{path}.id")
        if player_id in seen_players:
            raise EngineError(f"{path}.id", f"{player_id!r} appears twice")
        seen_players.add(player_id)
        players.append(
            Player(
                id=player_id,
                country=_parse_str(_require(obj, "country", path), f"{path}.country"),
                name=str(obj.get("name", "")),
            )
        )
    tournaments = [
        _parse_tournament(raw, f"tournaments[{index}]", country)
        for index, raw in enumerate(_parse_list(_require(doc, "tournaments", ""), "tournaments"))
    ]
    result = compute_list(settings=settings, as_of=as_of, tournaments=tournaments, players=players)
    return {
        "as_of": as_of.isoformat(),
        "list": [
            {
                "rank": entry.rank,
                "player": entry.player,
                "rating": entry.rating,
                "part_a": entry.part_a,
                "part_b": entry.part_b,
                "tournaments": entry.tournaments,
                "part_a_tournaments": list(entry.part_a_tournaments),
                "part_b_tournaments": list(entry.part_b_tournaments),
                "details": [_score_dict(score) for score in entry.scores],
                "explanation": entry.explanation.as_dict(),
            }
            for entry in result.entries
        ],
        "excluded": [
            {"tournament": item.tournament, "reason": item.reason.en, "reason_ru": item.reason.ru}
            for item in result.excluded
        ],
        "maxk": [{"tournament": item.tournament, "w": item.w, "a": item.a, "wa": item.wa} for item in result.maxk],
    }
