"""Tournaments for the mahjong engine's tests: one that counts in RR unless a test says otherwise, and random
histories (players, tournaments of every kind, a list's settings, a run of dates) for the property tests."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta

from hypothesis import strategies as st

from ratings.engines.mahjong import (
    CRR,
    ONLINE,
    RR,
    CutoffStage,
    Placement,
    PlayerInfo,
    RatedTournament,
    eligibility,
)

AS_OF = date(2025, 6, 1)


def make(
    tid: str = "t",
    *,
    end: date = date(2025, 3, 1),
    players: int = 40,
    hanchans: int = 8,
    country: str = "RU",
    results: tuple[Placement, ...] = (),
    **flags: bool,
) -> RatedTournament:
    """A tournament that counts in RR unless the test says otherwise."""
    flags = {"accredited": True, "open": True, **flags}
    return RatedTournament(
        id=tid, end_date=end, players=players, hanchans=hanchans, country=country, results=results, **flags
    )


def reasons_en(tournament: RatedTournament, list_settings, countries=None) -> list[str]:
    return [reason.en for reason in eligibility(tournament, list_settings, countries)]


def reasons_ru(tournament: RatedTournament, list_settings, countries=None) -> list[str]:
    return [reason.ru for reason in eligibility(tournament, list_settings, countries)]


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


def corrected(tournament: RatedTournament, seed: int) -> RatedTournament:
    """A correction of ``tournament``: a place, its flags or its end date changed (a new object, the same id)."""
    if seed % 3 == 0 and tournament.results:
        first = tournament.results[0]
        results = (replace(first, place=tournament.players), *tournament.results[1:])
        return replace(tournament, results=results)
    if seed % 3 == 1:
        return replace(tournament, accredited=not tournament.accredited, open=not tournament.open)
    return replace(tournament, end_date=tournament.end_date - timedelta(days=seed))


def run_of(found: list[RatedTournament], steps) -> Iterator[tuple[date, list[RatedTournament]]]:
    """The dates of a random history's run (``histories``), each with the tournaments known then (its corrections
    applied, by end date): what a list is computed from on each date."""
    day = FIRST + timedelta(days=365)
    current = list(found)
    for move, correction in steps:
        day += timedelta(days=move)
        if correction is not None:
            index = correction % len(current)
            current[index] = corrected(current[index], correction)
        yield day, sorted(current, key=lambda t: t.end_date)
