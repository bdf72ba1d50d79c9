"""Mahjong lists over many dates (``ListState``): each date's list equals a full ``compute_list`` of that date, on
random data, with tournaments entering and leaving the window, A stepping down, MAXK changing and corrections.
And the age steps that find A without counting months on every date. No database."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.common import EngineError
from ratings.engines.mahjong import (
    CRR,
    ListState,
    Placement,
    PlayerInfo,
    RatedTournament,
    age_bp,
    age_bp_by_steps,
    age_steps,
    compute_list,
)
from tests.ratings.engines.mahjong.helpers import histories, run_of


@settings(max_examples=150, deadline=None)
@given(histories())
def test_each_date_of_a_run_equals_a_full_computation(history):
    players, found, list_settings, steps = history
    state = ListState(settings=list_settings, players=players)
    for day, window in run_of(found, steps):
        incremental = state.compute(as_of=day, tournaments=window)
        full = compute_list(settings=list_settings, as_of=day, tournaments=window, players=players)
        assert incremental == full


def _league(count: int, *, start: date, every: int, prefix: str = "p", big: bool = False) -> list[RatedTournament]:
    ids = [f"{prefix}{i}" for i in range(12)]
    return [
        RatedTournament(
            id=f"{prefix}t{n}",
            end_date=start + timedelta(days=every * n),
            players=(100 + n % 40) if big else (12 + n % 5),
            hanchans=(12 + n % 9) if big else (4 + n % 9),
            country="RU",
            results=tuple(Placement(ids[(n + k) % 12], 1 + k) for k in range(12)),
            accredited=True,
            open=True,
        )
        for n in range(count)
    ]


def test_a_daily_run_over_two_years_equals_full_lists():
    # Tournaments every 23 days: one enters, steps down or leaves every few days. Another league plays
    # big tournaments every 47 days: they move MAXK, and so part B of the first league's players, on dates when
    # nothing of their own changes.
    league = sorted(
        _league(45, start=date(2023, 1, 5), every=23)
        + _league(17, start=date(2023, 2, 3), every=47, prefix="q", big=True),
        key=lambda t: t.end_date,
    )
    players = [PlayerInfo(f"{prefix}{i}", "RU", f"Игрок {prefix}{i:02d}") for i in range(12) for prefix in "pq"]
    state = ListState(settings=CRR, players=players)
    day = date(2024, 1, 1)
    maxks = set()
    while day <= date(2025, 12, 31):
        window = [t for t in league if t.end_date <= day]
        incremental = state.compute(as_of=day, tournaments=window)
        assert incremental == compute_list(settings=CRR, as_of=day, tournaments=window, players=players)
        maxks.add(incremental.maxk)
        day += timedelta(days=1)
    assert len(maxks) > 10


def test_unchanged_players_keep_their_objects_between_dates():
    league = _league(6, start=date(2025, 1, 1), every=30)
    state = ListState(settings=CRR)
    first = state.compute(as_of=date(2025, 7, 1), tournaments=league)
    second = state.compute(as_of=date(2025, 7, 2), tournaments=league)
    assert first.entries == second.entries
    assert all(a is b for a, b in zip(first.entries, second.entries, strict=True))


def test_a_bad_tournament_leaves_the_state_as_it_was():
    league = _league(4, start=date(2025, 1, 1), every=30)
    state = ListState(settings=CRR)
    before = state.compute(as_of=date(2025, 6, 1), tournaments=league)
    bad = replace(league[1], results=(*league[1].results[:-1], Placement("p1", 3)))
    with pytest.raises(EngineError, match=r"tournaments\[1\]\.results\[11\]\.player"):
        state.compute(as_of=date(2025, 6, 1), tournaments=[league[0], bad, *league[2:]])
    with pytest.raises(EngineError, match=r"tournaments\[1\]\.id"):
        state.compute(as_of=date(2025, 6, 1), tournaments=[league[0], league[0]])
    assert state.compute(as_of=date(2025, 6, 1), tournaments=league) == before


@settings(max_examples=500, deadline=None)
@given(
    st.dates(min_value=date(2016, 1, 1), max_value=date(2030, 12, 31)),
    st.integers(min_value=-40, max_value=800),
)
def test_age_by_steps_equals_age_by_months(end, days):
    as_of = end + timedelta(days=days)
    assert age_bp_by_steps(end, age_steps(end), as_of) == age_bp(end, as_of)


@pytest.mark.parametrize("end", [date(2024, 2, 29), date(2024, 1, 31), date(2023, 8, 31), date(2024, 12, 31)])
def test_age_by_steps_around_month_ends(end):
    steps = age_steps(end)
    for days in range(-3, 760):
        as_of = end + timedelta(days=days)
        assert age_bp_by_steps(end, steps, as_of) == age_bp(end, as_of), as_of
