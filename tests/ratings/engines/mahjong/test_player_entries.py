"""One player's mahjong entry (``player_entries``) equals that player's entry in the whole list (``compute_list``),
field for field, on every date of a few histories and of random ones; players who are not listed are absent; and
asking for one player does not compute anyone else's part. No database."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ratings.engines.mahjong.state as state_module
from ratings.engines.common import EngineError
from ratings.engines.mahjong import (
    CRR,
    ONLINE,
    RR,
    CutoffStage,
    ListSettings,
    ListState,
    Placement,
    PlayerInfo,
    RatedTournament,
    compute_list,
    player_entries,
)
from tests.ratings.engines.mahjong.helpers import histories, make, run_of

REGULARS = 36
FOREIGN = 5
"""The first players of a league are from abroad: listed online, never in RR or CRR."""


def league(seed: int) -> tuple[list[PlayerInfo], list[RatedTournament]]:
    """Three years of tournaments every 25 days or so, of every kind the lists tell apart.

    Kinds in turn: cut-offs with stage counts, online, online and restricted by rank (legitimate or not), an EMA
    tournament abroad, plain, plain without accreditation. Fields of 12 to 32 out of 36 regulars (the first 5 from
    abroad) with participants without a profile, a shared place now and then, and one newcomer per tournament who
    never plays again (one tournament: never listed). Sizes and lengths vary, so MAXK moves as tournaments enter and
    leave the two years, and A steps down month by month.
    """
    rng = random.Random(seed)
    regulars = [f"p{i:02d}" for i in range(REGULARS)]
    # Equal names make the ranking fall back on the id when ratings tie.
    players = [
        PlayerInfo(pid, "DE" if i < FOREIGN else "RU", rng.choice(["Ан", "Бо", "Ве", ""]))
        for i, pid in enumerate(regulars)
    ]
    found: list[RatedTournament] = []
    end = date(2023, 1, 10)
    for index in range(44):
        end += timedelta(days=rng.randrange(15, 36))
        n = rng.choice((12, 16, 16, 20, 24, 32, 40))
        field: list[str | None] = [*rng.sample(regulars, min(n - 3, REGULARS)), f"once{index}", None]
        rng.shuffle(field)
        places = list(range(1, len(field) + 1))
        if index % 5 == 0:
            places[1] = places[0]  # a shared first place
        kind = index % 7
        flags: dict = {"accredited": kind != 6, "open": rng.random() < 0.9}
        if kind == 0:
            first, second, finalists = rng.choice((2, 3, 6)), rng.choice((1, 2, 4)), max(2, n // 4)
            stages = (CutoffStage(first, n), CutoffStage(second, finalists))
            results = tuple(
                Placement(pid, place, first + second if place <= finalists else first)
                for pid, place in zip(field, places, strict=True)
            )
            found.append(
                make(f"t{index}", end=end, players=n, hanchans=first + second, results=results, stages=stages, **flags)
            )
            continue
        if kind in (1, 2):
            flags["online"] = True
            flags["rank_restricted"] = kind == 2
            flags["rank_restriction_legitimate"] = index % 3 != 0
        if kind == 3:
            flags["ema"] = True
        results = tuple(Placement(pid, place) for pid, place in zip(field, places, strict=True))
        found.append(
            make(
                f"t{index}",
                end=end,
                players=n,
                hanchans=rng.choice((2, 4, 6, 8, 12)),
                country="DE" if kind == 3 else "RU",
                results=results,
                **flags,
            )
        )
    return players, found


def assert_each_player_alone_as_in_the_list(list_settings, as_of, tournaments, players):
    """Every listed player asked alone gets the list's entry; everyone else with results is absent."""
    outcome = compute_list(settings=list_settings, as_of=as_of, tournaments=tournaments, players=players)
    for entry in outcome.entries:
        alone = player_entries(
            settings=list_settings,
            as_of=as_of,
            tournaments=tournaments,
            players=players,
            ranks={entry.player: entry.rank},
        )
        assert alone == {entry.player: entry}
    listed = {entry.player for entry in outcome.entries}
    everyone = {p.id for p in players} | {r.player for t in tournaments for r in t.results if r.player is not None}
    together = player_entries(
        settings=list_settings,
        as_of=as_of,
        tournaments=tournaments,
        players=players,
        ranks={player: 0 for player in everyone} | {e.player: e.rank for e in outcome.entries},
    )
    assert together == {entry.player: entry for entry in outcome.entries}
    assert not {player for player, _n in outcome.unlisted} & set(together)
    assert set(together) == listed
    return outcome


@pytest.mark.parametrize("list_settings", [RR, CRR, ONLINE], ids=lambda s: s.code)
@pytest.mark.parametrize("seed", [1, 2])
def test_each_listed_player_alone_equals_the_list_on_every_date(list_settings, seed):
    players, found = league(seed)
    maxks = set()
    ages: dict[str, set[int]] = {}
    singles = 0
    # Every 29 days over two years and a half, and a run of days where A steps at a month's turn.
    dates = [date(2023, 4, 1) + timedelta(days=29 * k) for k in range(32)]
    dates += [found[20].end_date + timedelta(days=days) for days in (29, 30, 31, 32, 60, 61, 62, 364, 365, 366)]
    for as_of in dates:
        outcome = assert_each_player_alone_as_in_the_list(list_settings, as_of, found, players)
        maxks.add(outcome.maxk)
        singles += sum(1 for _player, n in outcome.unlisted if n == 1)
        for entry in outcome.entries:
            for score in entry.scores:
                ages.setdefault(score.tournament, set()).add(score.a_bp)
    assert len(maxks) > 5
    assert max(len(values) for values in ages.values()) > 5
    assert singles > 0


def test_foreign_players_are_listed_online_only():
    players, found = league(3)
    as_of = date(2024, 12, 31)
    foreign = {p.id for p in players if p.country != "RU"}
    online = compute_list(settings=ONLINE, as_of=as_of, tournaments=found, players=players)
    ranks = {e.player: e.rank for e in online.entries if e.player in foreign}
    assert ranks
    assert set(player_entries(settings=ONLINE, as_of=as_of, tournaments=found, players=players, ranks=ranks)) == set(
        ranks
    )
    assert player_entries(settings=CRR, as_of=as_of, tournaments=found, players=players, ranks=ranks) == {}


def test_the_rank_is_the_callers():
    players, found = league(1)
    as_of = date(2024, 6, 1)
    entry = compute_list(settings=CRR, as_of=as_of, tournaments=found, players=players).entries[3]
    got = player_entries(settings=CRR, as_of=as_of, tournaments=found, players=players, ranks={entry.player: 999})
    assert got == {entry.player: replace(entry, rank=999)}


def test_asking_for_one_player_computes_only_that_players_part(monkeypatch):
    players, found = league(2)
    as_of = date(2024, 9, 1)
    entry = compute_list(settings=CRR, as_of=as_of, tournaments=found, players=players).entries[0]
    parts: list[str] = []
    real = state_module.player_part

    def counted(player, *args, **kwargs):
        parts.append(player)
        return real(player, *args, **kwargs)

    monkeypatch.setattr(state_module, "player_part", counted)
    got = player_entries(settings=CRR, as_of=as_of, tournaments=found, players=players, ranks={entry.player: 1})
    assert got == {entry.player: entry}
    assert parts == [entry.player]


def test_bad_data_raises_what_compute_list_raises():
    players, found = league(1)
    twice = next(result.player for result in found[3].results if result.player is not None)
    bad = replace(found[3], results=(*found[3].results[:-1], Placement(twice, 1)))
    for tournaments, where in (
        ([*found[:3], bad, *found[4:]], r"tournaments\[3\]\.results"),
        ([*found, found[0]], r"tournaments\[44\]\.id"),
    ):
        with pytest.raises(EngineError, match=where) as whole:
            compute_list(settings=RR, as_of=date(2024, 6, 1), tournaments=tournaments, players=players)
        with pytest.raises(EngineError, match=where) as one:
            player_entries(
                settings=RR, as_of=date(2024, 6, 1), tournaments=tournaments, players=players, ranks={"p10": 1}
            )
        assert str(one.value) == str(whole.value)


def test_a_tournament_without_a_rated_player_fills_no_maxk_place():
    # Only foreign players: it counts in CRR (it is at home), but takes no MAXK place, as in the whole list.
    players = [PlayerInfo("de1", "DE"), PlayerInfo("de2", "DE")]
    huge = make("huge", players=200, hanchans=20, results=(Placement("de1", 1), Placement("de2", 2)))
    small = [make(f"s{i}", players=12, hanchans=4, results=(Placement("ru", 1 + i),)) for i in range(3)]
    tournaments = [huge, *small]
    outcome = compute_list(settings=CRR, as_of=date(2025, 6, 1), tournaments=tournaments, players=players)
    assert "huge" not in {item.tournament for item in outcome.maxk}
    assert_each_player_alone_as_in_the_list(CRR, date(2025, 6, 1), tournaments, players)


@settings(max_examples=150, deadline=None)
@given(histories(), st.sampled_from([1, 2, 3]))
def test_random_histories_give_each_player_the_lists_entry(history, min_tournaments):
    players, found, list_settings, steps = history
    list_settings: ListSettings = replace(list_settings, min_tournaments=min_tournaments)
    # One state for the run and for single players: their caches are shared, the run's list is not disturbed.
    state = ListState(settings=list_settings, players=players)
    for day, window in run_of(found, steps):
        outcome = assert_each_player_alone_as_in_the_list(list_settings, day, window, players)
        for entry in outcome.entries:
            assert state.player_entries(as_of=day, tournaments=window, ranks={entry.player: entry.rank}) == {
                entry.player: entry
            }
        assert state.compute(as_of=day, tournaments=window) == outcome
