"""Mahjong engine, the list (`rules/mahjong.md`): part A's size and exact optimum, part B and MAXK, and which
tournaments each of RR, CRR and online counts. No database."""

from __future__ import annotations

import itertools
from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.common import EngineError
from ratings.engines.mahjong import (
    CRR,
    ONLINE,
    RR,
    CutoffStage,
    Placement,
    PlayerInfo,
    RatedTournament,
    best_subset,
    compute_list,
    delta_cents,
    part_a_size,
)
from tests.ratings.engines.mahjong.helpers import AS_OF, make, reasons_en, reasons_ru

# --- k ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "k"), [(1, 1), (5, 5), (6, 6), (10, 9), (11, 10), (15, 13), (20, 17), (25, 21)])
def test_part_a_size(n, k):
    assert part_a_size(n) == k


# --- Part A ----------------------------------------------------------------------------------------------------------


def test_best_subset_drops_what_pulls_the_mean_down_most_not_the_smallest_delta():
    # Three heavy good results and a light poor one against a heavy middling one: the mean of the best 4 drops the
    # heavy middling result (delta 1500 on weight 3) even though the light one has the smaller delta (100 on 0.5).
    deltas = [2800, 2800, 2800, 1500, 100]
    weights = [300, 300, 300, 300, 50]
    chosen = best_subset(deltas, weights, 4)
    assert chosen == (0, 1, 2, 4)


def test_best_subset_with_k_at_least_n_takes_everything():
    assert best_subset([1, 2], [1, 1], 5) == (0, 1)


def test_best_subset_rejects_non_positive_weights():
    with pytest.raises(EngineError):
        best_subset([1, 2], [1, 0], 1)


def brute_force_best(deltas: list[int], weights: list[int], k: int) -> Fraction:
    return max(
        Fraction(sum(deltas[i] for i in subset), sum(weights[i] for i in subset))
        for subset in itertools.combinations(range(len(deltas)), k)
    )


@st.composite
def part_a_cases(draw):
    n = draw(st.integers(min_value=1, max_value=12))
    k = draw(st.integers(min_value=1, max_value=n))
    # Realistic: W in hundredths (0.20..5.20), A one of the published steps, R from a place among N.
    items = []
    for _ in range(n):
        w = draw(st.integers(min_value=20, max_value=520))
        a = draw(st.sampled_from([10_000, 8571, 7143, 5714, 4286, 2857, 1429]))
        players = draw(st.integers(min_value=2, max_value=200))
        place = draw(st.integers(min_value=1, max_value=players))
        items.append((delta_cents(w, players, place, a), w * a))
    return [d for d, _ in items], [w for _, w in items], k


@settings(max_examples=400, deadline=None)
@given(part_a_cases())
def test_part_a_subset_beats_or_equals_every_subset_of_the_same_size(case):
    deltas, weights, k = case
    chosen = best_subset(deltas, weights, k)
    assert len(chosen) == k
    value = Fraction(sum(deltas[i] for i in chosen), sum(weights[i] for i in chosen))
    assert value == brute_force_best(deltas, weights, k)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 50), st.integers(1, 5)), min_size=2, max_size=10),
    st.data(),
)
def test_part_a_subset_is_optimal_with_many_ties(items, data):
    # Small integers make equal means and equal keys common: the iteration must still land on the optimum.
    deltas = [d for d, _ in items]
    weights = [w for _, w in items]
    k = data.draw(st.integers(min_value=1, max_value=len(items)))
    chosen = best_subset(deltas, weights, k)
    value = Fraction(sum(deltas[i] for i in chosen), sum(weights[i] for i in chosen))
    assert value == brute_force_best(deltas, weights, k)


def five_rr_tournaments(count: int) -> list[RatedTournament]:
    return [
        make(f"t{i}", end=date(2025, 1, 1 + i), players=20, hanchans=10, results=(Placement("p", 1 + i),))
        for i in range(count)
    ]


def test_part_a_with_fewer_than_five_tournaments_pads_with_zero_over_one():
    # Two tournaments, W = 0.5 + 1.9 = 2.40, A = 1: places 1 and 2 of 20: deltas 2 400.00 and 2 273.68.
    # part A = (2 400.00 + 2 273.68 + 0 + 0 + 0) / (2.40 + 2.40 + 1 + 1 + 1) = 4 673.68 / 7.80 = 599.19
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=five_rr_tournaments(2))
    entry = result.entries[0]
    assert [score.delta for score in sorted(entry.scores, key=lambda s: s.tournament)] == [2400.00, 2273.68]
    assert entry.part_a == 599.19
    assert "4 673.68 / 7.80 = 599.19" in entry.explanation.en
    assert "3 missing" in entry.explanation.en


def test_part_a_with_five_tournaments_has_no_padding():
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=five_rr_tournaments(5))
    entry = result.entries[0]
    # places 1..5 of 20, W 2.40: deltas 2400, 2273.68, 2147.37, 2021.05, 1894.74; mean over W = 2.40 * 5
    assert entry.part_a == round((2400.00 + 2273.68 + 2147.37 + 2021.05 + 1894.74) / 12.0, 2)
    assert entry.part_a_tournaments == ("t0", "t1", "t2", "t3", "t4")


def test_part_a_with_six_tournaments_keeps_the_best_six():
    # n = 6 -> k = 5 + ceil(0.8) = 6: all six.
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=five_rr_tournaments(6))
    assert len(result.entries[0].part_a_tournaments) == 6


def test_part_a_with_ten_tournaments_drops_the_worst():
    tournaments = five_rr_tournaments(10)
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=tournaments)
    entry = result.entries[0]
    assert entry.part_a_size == 9
    assert "t9" not in entry.part_a_tournaments  # place 10 of 20, the worst
    assert entry.part_b_tournaments == ("t0", "t1", "t2", "t3")


# --- Part B ----------------------------------------------------------------------------------------------------------


def test_part_b_with_fewer_than_four_tournaments_counts_missing_maxk_as_one():
    # Two tournaments in the list, both with W 2.40 and A = 1: MAXK = 2.40 + 2.40 + 1 + 1 = 6.80.
    # part B = (2 400.00 + 2 273.68) / 6.80 = 687.31
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=five_rr_tournaments(2))
    assert [item.wa for item in result.maxk] == [2.40, 2.40, 1.0, 1.0]
    assert [item.tournament for item in result.maxk][2:] == [None, None]
    assert result.entries[0].part_b == 687.31


def test_maxk_ignores_tournaments_without_a_rated_player():
    big = make("big", players=200, hanchans=30, results=(Placement("fr", 1), Placement(None, 2)))
    small = five_rr_tournaments(2)
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=[big, *small], players=[PlayerInfo("fr", "FR")])
    assert "big" in result.counted
    assert [item.tournament for item in result.maxk] == ["t1", "t0", None, None]  # equal W·A: the later first


def test_maxk_takes_a_cutoff_tournament_once_with_its_finalists_w():
    cut = RatedTournament(
        id="cut", end_date=date(2025, 3, 1), players=28, hanchans=20, country="RU", accredited=True, open=True,
        stages=(CutoffStage(10), CutoffStage(10, 8)), results=(Placement("p", 9, 10),),
    )  # fmt: skip
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=[cut, *five_rr_tournaments(1)])
    assert [(item.tournament, item.w) for item in result.maxk] == [
        ("cut", 3.18),
        ("t0", 2.40),
        (None, 1.0),
        (None, 1.0),
    ]
    score = next(score for score in result.entries[0].scores if score.tournament == "cut")
    assert score.w == 2.73  # out after stage 1


def test_maxk_uses_w_times_a():
    old = make("old", end=date(2024, 5, 1), players=100, hanchans=10, results=(Placement("p", 1),))  # A 85.71
    new = make("new", players=20, hanchans=10, results=(Placement("p", 1),))
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=[old, new])
    assert result.maxk[0].tournament == "old"
    assert result.maxk[0].wa == pytest.approx(3.90 * 0.8571)


def test_online_part_b_takes_three():
    tournaments = [
        make(f"o{i}", players=12, hanchans=3, online=True, accredited=False, open=False, results=(Placement("p", 1),))
        for i in range(5)
    ]
    result = compute_list(settings=ONLINE, as_of=AS_OF, tournaments=tournaments)
    assert len(result.maxk) == 3
    assert len(result.entries[0].part_b_tournaments) == 3
    # W = 0.3 + 0.6 = 0.90 everywhere, R = 1000: part B = 3 * 900 / (3 * 0.9) = 1000
    assert result.entries[0].part_b == 1000.00


# --- Ranking ---------------------------------------------------------------------------------------------------------


def test_player_with_one_tournament_is_not_listed():
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=five_rr_tournaments(1))
    assert result.entries == ()
    assert result.unlisted == (("p", 1),)


def test_ranking_by_unrounded_rating_then_name():
    # Same results: equal ratings, ordered by name.
    results = (Placement("b", 1), Placement("a", 1), Placement("c", 2))
    tournaments = [make("x", results=results), make("y", end=date(2025, 2, 1), results=results)]
    players = [PlayerInfo("a", "RU", "Zoya"), PlayerInfo("b", "RU", "Anna"), PlayerInfo("c", "RU", "Boris")]
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=tournaments, players=players)
    assert [(entry.rank, entry.player) for entry in result.entries] == [(1, "b"), (2, "a"), (3, "c")]


def test_ranking_uses_the_unrounded_value_when_the_rounded_ratings_tie():
    # 40 players, W 2.60: p at place 2 and 3 in two tournaments vs q at 1 and 4 give different unrounded ratings.
    tournaments = [
        make("x", results=(Placement("q", 1), Placement("p", 2))),
        make("y", end=date(2025, 2, 1), results=(Placement("p", 3), Placement("q", 4))),
    ]
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=tournaments)
    ratings = {entry.player: entry.rating_unrounded for entry in result.entries}
    assert [entry.player for entry in result.entries] == sorted(ratings, key=lambda p: -ratings[p])


def test_future_tournament_is_excluded_with_its_reason():
    late = make("late", end=date(2025, 7, 1), results=(Placement("p", 1),))
    result = compute_list(settings=RR, as_of=AS_OF, tournaments=[late])
    assert result.excluded[0].reason.en == "ends after the rating date"


# --- Eligibility: RR -------------------------------------------------------------------------------------------------


def test_rr_counts_a_tournament_meeting_every_rule():
    assert reasons_en(make(players=16, hanchans=4), RR) == []


def test_rr_needs_16_players():
    assert reasons_en(make(players=15), RR) == ["fewer than 16 players"]
    assert reasons_ru(make(players=15), RR) == ["меньше 16 игроков"]


def test_rr_needs_4_hanchans():
    assert reasons_en(make(hanchans=3), RR) == ["fewer than 4 hanchans"]
    assert reasons_ru(make(hanchans=3), RR) == ["меньше 4 ханчанов"]


def test_rr_needs_accreditation():
    assert reasons_en(make(accredited=False), RR) == ["not accredited by the federation"]


def test_rr_needs_an_open_tournament():
    assert reasons_en(make(open=False), RR) == ["not open"]


def test_rr_gives_every_failing_reason():
    assert reasons_en(make(players=12, hanchans=3, accredited=False, open=False), RR) == [
        "fewer than 16 players", "fewer than 4 hanchans", "not accredited by the federation", "not open",
    ]  # fmt: skip


def test_rr_before_2018_needs_only_16_players():
    loose = make(end=date(2017, 12, 31), players=16, hanchans=2, accredited=False, open=False)
    assert reasons_en(loose, RR) == []
    assert reasons_en(make(end=date(2017, 12, 31), players=15, hanchans=2), RR) == ["fewer than 16 players"]
    assert reasons_en(replace_end(loose, date(2018, 1, 1)), RR) == [
        "fewer than 4 hanchans", "not accredited by the federation", "not open",
    ]  # fmt: skip


def replace_end(tournament: RatedTournament, end: date) -> RatedTournament:
    from dataclasses import replace

    return replace(tournament, end_date=end)


def test_rr_counts_an_ema_tournament_abroad_with_a_player_of_the_country():
    abroad = make(
        country="FR", ema=True, accredited=False, open=False, results=(Placement("ru", 5), Placement("fr", 1))
    )
    assert reasons_en(abroad, RR, {"fr": "FR"}) == []


def test_rr_refuses_an_ema_tournament_abroad_without_a_player_of_the_country():
    abroad = make(country="FR", ema=True, results=(Placement("fr", 1), Placement(None, 2)))
    assert reasons_en(abroad, RR, {"fr": "FR"}) == ["an EMA tournament abroad without a player from RU"]


def test_rr_never_counts_a_club_tournament_abroad():
    abroad = make(country="FR", ema=False, results=(Placement("ru", 1),))
    assert reasons_en(abroad, RR) == ["a tournament abroad without EMA status"]
    assert reasons_en(replace_end(abroad, date(2017, 6, 1)), RR) == ["a tournament abroad without EMA status"]


def test_rr_ema_abroad_still_needs_the_size():
    abroad = make(country="FR", ema=True, players=12, results=(Placement("ru", 1),))
    assert reasons_en(abroad, RR) == ["fewer than 16 players"]


def test_rr_refuses_online_tournaments():
    assert reasons_en(make(online=True), RR) == ["an online tournament"]


# --- Eligibility: CRR ------------------------------------------------------------------------------------------------


def test_crr_needs_12_players():
    assert reasons_en(make(players=12, accredited=False, open=False), CRR) == []
    assert reasons_en(make(players=11), CRR) == ["fewer than 12 players"]


def test_crr_needs_3_hanchans():
    assert reasons_en(make(hanchans=3), CRR) == []
    assert reasons_en(make(hanchans=2), CRR) == ["fewer than 3 hanchans"]
    assert reasons_ru(make(hanchans=2), CRR) == ["меньше 3 ханчанов"]


def test_crr_needs_no_accreditation_and_no_openness():
    assert reasons_en(make(accredited=False, open=False), CRR) == []


def test_crr_counts_ema_abroad_with_a_player_of_the_country_only():
    with_ru = make(country="JP", ema=True, results=(Placement("ru", 1),))
    without = make(country="JP", ema=True, results=(Placement("jp", 1),))
    club = make(country="JP", results=(Placement("ru", 1),))
    assert reasons_en(with_ru, CRR) == []
    assert reasons_en(without, CRR, {"jp": "JP"}) == ["an EMA tournament abroad without a player from RU"]
    assert reasons_en(club, CRR) == ["a tournament abroad without EMA status"]


def test_crr_refuses_online_tournaments():
    assert reasons_en(make(online=True), CRR) == ["an online tournament"]


def test_crr_has_no_2018_rule():
    assert reasons_en(make(end=date(2017, 1, 1), hanchans=2), CRR) == ["fewer than 3 hanchans"]


# --- Eligibility: online ---------------------------------------------------------------------------------------------


def online(**kwargs) -> RatedTournament:
    return make(online=True, accredited=False, open=False, **kwargs)


def test_online_needs_an_online_tournament():
    assert reasons_en(online(players=12, hanchans=3), ONLINE) == []
    assert reasons_en(make(), ONLINE) == ["not an online tournament"]
    assert reasons_ru(make(), ONLINE) == ["не онлайн-турнир"]


def test_online_needs_12_players():
    assert reasons_en(online(players=11), ONLINE) == ["fewer than 12 players"]


def test_online_needs_3_hanchans():
    assert reasons_en(online(hanchans=2), ONLINE) == ["fewer than 3 hanchans"]


def test_online_ignores_the_country():
    assert reasons_en(online(country="JP"), ONLINE) == []


def test_online_rank_restricted_before_2021_05_19_never_counts():
    early = online(end=date(2021, 5, 18), rank_restricted=True, rank_restriction_legitimate=True)
    assert reasons_en(early, ONLINE) == ["restricted by rank before 2021-05-19"]
    assert reasons_ru(early, ONLINE) == ["ограничение по рангу до 19.05.2021"]


def test_online_rank_restricted_from_2021_05_19_counts_when_legitimate():
    legitimate = online(end=date(2021, 5, 19), rank_restricted=True, rank_restriction_legitimate=True)
    assert reasons_en(legitimate, ONLINE) == []


def test_online_rank_restricted_not_judged_legitimate_does_not_count():
    judged_not = online(end=date(2022, 1, 1), rank_restricted=True)
    assert reasons_en(judged_not, ONLINE) == ["rank restriction not judged legitimate"]


def test_online_lists_everyone_with_an_online_result():
    tournaments = [
        online(tid="o1", results=(Placement("jp", 1), Placement("ru", 2))),
        online(tid="o2", end=date(2025, 2, 1), results=(Placement("jp", 2), Placement("ru", 1))),
    ]
    players = [PlayerInfo("jp", "JP")]
    listed = compute_list(settings=ONLINE, as_of=AS_OF, tournaments=tournaments, players=players)
    assert sorted(entry.player for entry in listed.entries) == ["jp", "ru"]


def test_rr_lists_only_players_of_the_country():
    tournaments = [
        make("x", results=(Placement("jp", 1), Placement("ru", 2))),
        make("y", end=date(2025, 2, 1), results=(Placement("jp", 2), Placement("ru", 1))),
    ]
    listed = compute_list(settings=RR, as_of=AS_OF, tournaments=tournaments, players=[PlayerInfo("jp", "JP")])
    assert [entry.player for entry in listed.entries] == ["ru"]
