"""The one rounding every engine uses: half away from zero, exactly, on whole numbers. No database."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from ratings.engines.common import div_round_half_away, shown


def test_halves_go_away_from_zero():
    assert div_round_half_away(5, 2) == 3
    assert div_round_half_away(-5, 2) == -3
    assert div_round_half_away(1, 8) == 0
    assert div_round_half_away(-7, 8) == -1
    assert div_round_half_away(0, 3) == 0


def test_a_half_in_hundredths_is_decided_on_the_exact_numbers():
    # 0.125 to two decimals: as a float 0.125 * 100 is 12.5 only by luck; here it is 125 / 10 exactly.
    assert div_round_half_away(125, 10) == 13
    assert div_round_half_away(-125, 10) == -13
    assert div_round_half_away(124_999, 10_000) == 12


@given(st.integers(-(10**12), 10**12), st.integers(1, 10**6))
def test_equals_rounding_the_exact_fraction(numerator, denominator):
    exact = Fraction(numerator, denominator)
    expected = int(math.copysign(math.floor(abs(exact) + Fraction(1, 2)), exact))
    assert div_round_half_away(numerator, denominator) == expected


def test_shown_rounds_the_exact_fraction_half_away():
    assert shown(1, 32, 4) == 0.0313  # 0.03125: Python's round would give the even 0.0312
    assert shown(-1, 32, 4) == -0.0313
    assert shown(1000 * 1, 64, 2) == 15.63
    assert shown(1, 3, 2) == 0.33
    assert shown(200, 2, 4) == 100.0
