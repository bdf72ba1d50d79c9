"""Golden tests of the per-game arithmetic (`rules/go.md`, part 1): start levels, points of a win, stones and komi."""

from __future__ import annotations

import pytest

from ratings.engines.common import EngineError
from tournaments.pairing import (
    KOMI_NONE,
    KOMI_NORMAL,
    KOMI_REVERSE,
    Options,
    handicap_for,
    max_level_gap,
    start_level,
    win_points,
)


def test_start_levels_half_stone_example():
    assert {start_level(r, half_stone=True) for r in range(2100, 2150)} == {42}
    assert {start_level(r, half_stone=True) for r in range(2150, 2200)} == {43}
    assert start_level(1300, half_stone=True) == 26
    assert start_level(1700, half_stone=True) == 34


def test_start_levels_one_stone_and_below_zero():
    assert start_level(0, half_stone=False) == 0
    assert start_level(1600, half_stone=False) == 16
    assert start_level(2599, half_stone=False) == 25
    assert start_level(-150, half_stone=False) == 0
    assert start_level(-1, half_stone=True) == 0
    assert start_level(2149.9, half_stone=True) == 42


def test_acceleration_five_rounds_gives_nine():
    points = [win_points(k, k, 5, acceleration=True) for k in range(1, 6)]
    assert points == [1, 2, 3, 2, 1]
    assert sum(points) == 9


def test_acceleration_fourteen_rounds_gives_fifty_six():
    points = [win_points(k, k, 14, acceleration=True) for k in range(1, 15)]
    assert points == [1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1]
    assert sum(points) == 56


def test_without_acceleration_a_win_is_one():
    assert [win_points(k, k, 5, acceleration=False) for k in range(1, 6)] == [1, 1, 1, 1, 1]


def test_handicap_table_half_stone():
    assert handicap_for(0, half_stone=True) == (0, KOMI_NORMAL)
    assert handicap_for(1, half_stone=True) == (1, KOMI_NONE)
    assert handicap_for(2, half_stone=True) == (1, KOMI_REVERSE)
    assert handicap_for(3, half_stone=True) == (2, KOMI_NONE)
    assert handicap_for(4, half_stone=True) == (2, KOMI_REVERSE)
    assert handicap_for(-3, half_stone=True) == (2, KOMI_NONE)
    assert handicap_for(17, half_stone=True) == (9, KOMI_NONE)
    assert handicap_for(18, half_stone=True) == (9, KOMI_REVERSE)
    assert handicap_for(19, half_stone=True) == (10, KOMI_NONE)


def test_handicap_table_one_stone():
    assert handicap_for(0, half_stone=False) == (0, KOMI_NORMAL)
    assert handicap_for(1, half_stone=False) == (1, KOMI_NONE)
    assert handicap_for(2, half_stone=False) == (2, KOMI_NONE)
    assert handicap_for(3, half_stone=False) == (3, KOMI_NONE)
    assert handicap_for(4, half_stone=False) == (4, KOMI_NONE)
    assert handicap_for(9, half_stone=False) == (9, KOMI_NONE)


def test_nine_stones_as_level_gap():
    assert max_level_gap(half_stone=True) == 18
    assert max_level_gap(half_stone=False) == 9
    assert Options.fus(5).max_level_gap == 18


def test_options_are_checked():
    with pytest.raises(EngineError, match=r"^options.rounds: 0 is not"):
        Options(rounds=0)
    with pytest.raises(EngineError, match=r"^options.komi_none: "):
        Options(rounds=3, komi_none=-1)
