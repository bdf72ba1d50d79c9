"""The numbers of one tournament in a mahjong list: R, K_hanchans, K_players, W (with cut-offs), A and the delta.

Each rounded quantity of `rules/mahjong.md` is kept as the exact integer the rules publish, so that no float error
can move a player across a rounding edge: W and deltas in hundredths (``*_cents``), A in hundredths of a percent
(``*_bp``: 85.71 % is 8571), W·A in millionths (their product).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from dateutil.relativedelta import relativedelta

from ratings.engines.common import div_round_half_away
from ratings.engines.mahjong.inputs import RatedTournament

CENT = 100
"""W and deltas are integers in hundredths."""
A_FULL = 10_000
"""A is an integer in hundredths of a percent: 10 000 is A = 1."""
WA_UNIT = CENT * A_FULL
"""W·A is an integer in millionths (hundredths times hundredths of a percent)."""


# `rules/mahjong.md`, "Age coefficient A": the published percentages, 1 - step / 7, each held for 2 months.
_A_STEPS_BP = (10_000, 8571, 7143, 5714, 4286, 2857, 1429, 0)


def base_rank(players: int, place: int) -> float:
    """R of a place among N players, unrounded (100 players, 25th place: 757.5757..., shown as 757.58).

    `rules/mahjong.md`, "Base rank R": R = (N - place) / (N - 1) * 1000. A tournament of one player has no ranking
    to speak of; its only player gets 1000 so that the formula never divides by zero.
    """
    if players <= 1:
        return 1000.0
    return (players - place) * 1000 / (players - 1)


def base_rank_cents(players: int, place: int) -> int:
    """R as shown, in hundredths (757.58 is 75 758): rounded from the exact fraction, never from R's float."""
    if players <= 1:
        return 1000 * CENT
    return div_round_half_away((players - place) * 1000 * CENT, players - 1)


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
    return div_round_half_away(total, count)


def cutoff_w_cents(k_players_c: int, hanchans: int, w_avg_c: int) -> int:
    """W in hundredths of a player who played ``hanchans`` in a cut-off tournament.

    `rules/mahjong.md`, "Tournaments with cut-offs": W = K_players(N1) + (K_hanchans(h) + W_avg) / 2, rounded to
    2 decimals (0.7 + (1.9 + 2.16) / 2 = 2.73).
    """
    return k_players_c + div_round_half_away(k_hanchans_cents(hanchans) + w_avg_c, 2)


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
        return div_round_half_away(w_c * 1000 * a_bp, 10_000)
    return div_round_half_away(w_c * (players - place) * a_bp, 10 * (players - 1))


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
        return self.k_players_cents + div_round_half_away(self.k_hanchans_cents + self.w_avg_cents, 2)

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


def _first_stage_hanchans(tournament: RatedTournament) -> list[int]:
    """The hanchans of every first-stage player of a cut-off tournament (N1 of them); see the package's decisions."""
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


def tournament_coefficients(tournament: RatedTournament) -> Coefficients:
    """K_players, K_hanchans and (for cut-off tournaments) W_avg, from which every participant's W follows.

    `rules/mahjong.md`, "Tournament coefficient W" and "Tournaments with cut-offs".
    """
    kp = k_players_cents(tournament.players)
    kh = k_hanchans_cents(tournament.hanchans)
    if not tournament.is_cutoff:
        return Coefficients(kp, kh, None)
    return Coefficients(kp, kh, cutoff_w_avg_cents(_first_stage_hanchans(tournament)))
