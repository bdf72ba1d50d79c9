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
    ONLINE,
    RR,
    CutoffStage,
    ListState,
    Placement,
    PlayerInfo,
    RatedTournament,
    age_bp,
    age_bp_by_steps,
    age_steps,
    compute_list,
)

FIRST = date(2023, 1, 1)
SPAN = 3 * 365


@st.composite
def tournaments(draw, players: list[PlayerInfo]):
    """A random tournament among ``players``: plain or with cut-offs, flags at random, a third of a year apart."""
    index = draw(st.integers(min_value=0, max_value=10_000))
    end = FIRST + timedelta(days=draw(st.integers(min_value=0, max_value=SPAN)))
    # Small fields in a larger pool, so that most dates leave most players untouched.
    size = draw(st.integers(min_value=2, max_value=min(len(players), 5)))
    chosen = draw(st.permutations(players))[:size]
    extra = draw(st.integers(min_value=0, max_value=4))
    n = size + extra
    places = sorted(draw(st.lists(st.integers(min_value=1, max_value=n), min_size=size, max_size=size)))
    cutoff = draw(st.booleans())
    if cutoff:
        first = draw(st.integers(min_value=1, max_value=8))
        second = draw(st.integers(min_value=1, max_value=8))
        finalists = draw(st.integers(min_value=1, max_value=n))
        stages = (CutoffStage(first, n), CutoffStage(second, finalists))
        hanchans = first + second
        results = tuple(
            Placement(player.id, place, hanchans if rank < finalists else first)
            for rank, (player, place) in enumerate(zip(chosen, places, strict=True))
        )
    else:
        stages = ()
        hanchans = draw(st.integers(min_value=1, max_value=24))
        results = tuple(Placement(player.id, place) for player, place in zip(chosen, places, strict=True))
    online = draw(st.booleans())
    return RatedTournament(
        id=f"t{index}",
        end_date=end,
        players=n,
        hanchans=hanchans,
        country=draw(st.sampled_from(["RU", "RU", "RU", "DE"])),
        results=results,
        stages=stages,
        ema=draw(st.booleans()),
        accredited=draw(st.booleans()),
        open=draw(st.booleans()),
        online=online,
        rank_restricted=online and draw(st.booleans()),
        rank_restriction_legitimate=draw(st.booleans()),
    )


@st.composite
def histories(draw):
    """Players, tournaments, a list's settings with small thresholds, and a run of dates with corrections."""
    players = [
        PlayerInfo(f"p{i}", draw(st.sampled_from(["RU", "RU", "DE"])), draw(st.sampled_from(["Ан", "Бо", "Ве", ""])))
        for i in range(draw(st.integers(min_value=3, max_value=14)))
    ]
    found = draw(st.lists(tournaments(players), min_size=1, max_size=14, unique_by=lambda t: t.id))
    base = draw(st.sampled_from([RR, CRR, ONLINE]))
    list_settings = replace(
        base,
        min_players=draw(st.integers(min_value=2, max_value=6)),
        min_hanchans=draw(st.integers(min_value=1, max_value=4)),
        part_b_count=draw(st.integers(min_value=1, max_value=4)),
        rank_restricted_from=base.rank_restricted_from and date(2024, 1, 1),
    )
    steps = draw(
        st.lists(
            st.tuples(
                # Mostly a few days forward (A steps, tournaments enter); sometimes a jump, either way.
                st.one_of(st.integers(min_value=0, max_value=40), st.integers(min_value=-400, max_value=400)),
                # A correction: one tournament's place or flag changed (a different object with the same id).
                st.one_of(st.none(), st.integers(min_value=0, max_value=100)),
            ),
            min_size=1,
            max_size=25,
        )
    )
    return players, found, list_settings, steps


def _corrected(tournament: RatedTournament, seed: int) -> RatedTournament:
    if seed % 3 == 0 and tournament.results:
        first = tournament.results[0]
        results = (replace(first, place=tournament.players), *tournament.results[1:])
        return replace(tournament, results=results)
    if seed % 3 == 1:
        return replace(tournament, accredited=not tournament.accredited, open=not tournament.open)
    return replace(tournament, end_date=tournament.end_date - timedelta(days=seed))


@settings(max_examples=150, deadline=None)
@given(histories())
def test_each_date_of_a_run_equals_a_full_computation(history):
    players, found, list_settings, steps = history
    state = ListState(settings=list_settings, players=players)
    day = FIRST + timedelta(days=365)
    current = list(found)
    for move, correction in steps:
        day += timedelta(days=move)
        if correction is not None:
            index = correction % len(current)
            current[index] = _corrected(current[index], correction)
        window = sorted(current, key=lambda t: t.end_date)
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
