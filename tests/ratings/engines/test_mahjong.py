"""Mahjong RR / CRR / online engine: the worked examples of `rules/mahjong.md` with their numbers, each list's rules,
part A's exact optimum, and ``manage.py rate``'s document (`RATE_CLI.md`). No database."""

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
    age_bp,
    age_coefficient,
    base_rank,
    best_subset,
    compute_list,
    cutoff_w_avg_cents,
    cutoff_w_cents,
    delta_cents,
    eligibility,
    k_hanchans,
    k_hanchans_cents,
    k_players,
    k_players_cents,
    list_settings_from_params,
    part_a_size,
    rate_document,
    tournament_coefficients,
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


# --- R -----------------------------------------------------------------------------------------------------------


def test_base_rank_100_players_25th_place_is_757_58_not_truncated():
    r = base_rank(100, 25)
    assert r == pytest.approx(757.5757575757, abs=1e-9)
    assert f"{r:.2f}" == "757.58"


def test_base_rank_first_and_last():
    assert base_rank(40, 1) == 1000
    assert base_rank(40, 40) == 0


def test_base_rank_is_not_rounded_inside_the_delta():
    # W 1.00, R = 75 / 99 * 1000 = 757.5757..., A = 1: delta 757.58; with R truncated to 757 it would be 757.00.
    assert delta_cents(100, 100, 25, 10_000) == 75758


# --- K_players, K_hanchans ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "expected"),
    [(20, 0.50), (28, 0.70), (30, 0.70), (32, 0.80), (80, 1.75), (100, 2.00), (124, 2.26), (140, 2.30)],
)
def test_k_players_checks_of_the_rules(players, expected):
    assert k_players(players) == expected


@pytest.mark.parametrize(
    ("players", "cents"), [(3, 0), (60, 150), (63, 150), (64, 155), (120, 225), (180, 240), (181, 240), (500, 240)]
)
def test_k_players_table_edges(players, cents):
    assert k_players_cents(players) == cents


def test_k_hanchans_ten_is_1_90():
    assert k_hanchans(10) == 1.90


@pytest.mark.parametrize(
    ("hanchans", "cents"), [(0, 0), (4, 80), (8, 160), (9, 175), (12, 220), (13, 230), (16, 260), (20, 280), (30, 280)]
)
def test_k_hanchans_table_edges(hanchans, cents):
    assert k_hanchans_cents(hanchans) == cents


# --- Cut-off tournaments ------------------------------------------------------------------------------------------


def test_cutoff_28_players_10_plus_10_hanchans_8_finalists():
    w_avg = cutoff_w_avg_cents([10] * 20 + [20] * 8)
    assert w_avg == 216  # (1.9 * 20 + 2.8 * 8) / 28 = 2.157 -> 2.16
    kp = k_players_cents(28)
    assert cutoff_w_cents(kp, 10, w_avg) == 273  # 0.7 + (1.9 + 2.16) / 2
    assert cutoff_w_cents(kp, 20, w_avg) == 318  # 0.7 + (2.8 + 2.16) / 2


def test_cutoff_32_players_four_stages_of_5_hanchans():
    w_avg = cutoff_w_avg_cents([5] * 16 + [10] * 8 + [15] * 4 + [20] * 4)
    assert w_avg == 164  # (16 * 1.0 + 8 * 1.9 + 4 * 2.5 + 4 * 2.8) / 32 = 1.6375 -> 1.64
    kp = k_players_cents(32)
    assert [cutoff_w_cents(kp, h, w_avg) for h in (5, 10, 15, 20)] == [212, 257, 287, 302]


def test_cutoff_w_from_stage_player_counts():
    tournament = RatedTournament(
        id="cut",
        end_date=date(2025, 3, 1),
        players=32,
        hanchans=20,
        country="RU",
        stages=(CutoffStage(5), CutoffStage(5, 16), CutoffStage(5, 8), CutoffStage(5, 4)),
        results=(Placement("a", 1, 20), Placement("b", 30, 5)),
    )
    coefficients = tournament_coefficients(tournament)
    assert coefficients.w_avg == 1.64
    assert coefficients.k_players == 0.80
    assert [coefficients.w_cents(h) for h in (5, 10, 15, 20)] == [212, 257, 287, 302]
    assert coefficients.finalist_w == 3.02


def test_cutoff_w_from_every_participants_result():
    results = tuple(Placement(f"p{i}", i, 20 if i <= 8 else 10) for i in range(1, 29))
    tournament = RatedTournament(
        id="cut", end_date=date(2025, 3, 1), players=28, hanchans=20, country="RU",
        stages=(CutoffStage(10), CutoffStage(10)), results=results,
    )  # fmt: skip
    coefficients = tournament_coefficients(tournament)
    assert coefficients.w_avg == 2.16
    assert (coefficients.w_cents(10), coefficients.w_cents(20)) == (273, 318)


def test_cutoff_unlisted_participants_are_taken_to_have_played_the_first_stage():
    tournament = RatedTournament(
        id="cut", end_date=date(2025, 3, 1), players=28, hanchans=20, country="RU",
        stages=(CutoffStage(10), CutoffStage(10)), results=(Placement("a", 1, 20),),
    )  # fmt: skip
    # (2.8 + 27 * 1.9) / 28 = 1.932 -> 1.93
    assert tournament_coefficients(tournament).w_avg == 1.93


def test_plain_tournament_w_is_k_hanchans_plus_k_players():
    coefficients = tournament_coefficients(make(players=100, hanchans=10))
    assert coefficients.finalist_w == 3.90
    assert coefficients.w_avg is None


# --- A -------------------------------------------------------------------------------------------------------------

END = date(2024, 3, 10)


@pytest.mark.parametrize(
    ("as_of", "percent"),
    [
        (date(2024, 3, 10), 100.00),
        (date(2025, 3, 9), 100.00),
        (date(2025, 3, 10), 85.71),  # the anniversary itself
        (date(2025, 5, 9), 85.71),
        (date(2025, 5, 10), 71.43),
        (date(2025, 7, 10), 57.14),
        (date(2025, 9, 10), 42.86),
        (date(2025, 11, 10), 28.57),
        (date(2026, 1, 10), 14.29),
        (date(2026, 3, 9), 14.29),
        (date(2026, 3, 10), 0.00),
        (date(2030, 1, 1), 0.00),
    ],
)
def test_age_steps_each_two_months_after_a_year(as_of, percent):
    assert age_bp(END, as_of) / 100 == percent


def test_age_is_the_published_percentage_not_the_fraction():
    assert age_coefficient(END, date(2025, 3, 10)) == 0.8571
    assert age_coefficient(END, date(2025, 3, 10)) != pytest.approx(6 / 7, abs=1e-6)


def test_age_before_the_tournament_ends_is_zero():
    assert age_bp(date(2025, 6, 2), AS_OF) == 0


def test_age_calendar_months_around_29_february():
    # relativedelta counts 2024-02-29 + 1 year as 2025-02-28: the step happens that day, not a day later.
    assert age_bp(date(2024, 2, 29), date(2025, 2, 27)) == 10_000
    assert age_bp(date(2024, 2, 29), date(2025, 2, 28)) == 8571


def test_delta_rounds_to_two_decimals():
    # 2.40 * (15 / 19 * 1000) * 0.8571 = 1623.9789... -> 1623.98
    assert delta_cents(240, 20, 5, 8571) == 162398


# --- k -------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "k"), [(1, 1), (5, 5), (6, 6), (10, 9), (11, 10), (15, 13), (20, 17), (25, 21)])
def test_part_a_size(n, k):
    assert part_a_size(n) == k


# --- Part A --------------------------------------------------------------------------------------------------------


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


# --- Part B --------------------------------------------------------------------------------------------------------


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


# --- Rating and the list -------------------------------------------------------------------------------------------


def document() -> dict:
    return {
        "system": "mahjong-rr",
        "as_of": "2025-06-01",
        "country": "RU",
        "players": [{"id": "p4", "country": "FR"}],
        "tournaments": [
            {"id": "t1", "end_date": "2025-03-01", "players": 40, "hanchans": 8, "accredited": True, "open": True,
             "results": [{"player": "p1", "place": 1}, {"player": "p2", "place": 2}, {"player": "p4", "place": 3},
                         {"player": None, "place": 4}]},
            {"id": "t2", "end_date": "2024-05-15", "players": 20, "hanchans": 10, "accredited": True, "open": True,
             "results": [{"player": "p1", "place": 5}]},
            {"id": "t3", "end_date": "2025-01-20", "players": 16, "hanchans": 4, "accredited": True, "open": True,
             "results": [{"player": "p2", "place": 1}, {"player": "p3", "place": 2}, {"player": "p1", "place": 16}]},
            {"id": "t7", "end_date": "2025-04-01", "players": 15, "hanchans": 8, "accredited": True, "open": True,
             "results": [{"player": "p1", "place": 1}]},
            {"id": "t8", "end_date": "2023-01-01", "players": 40, "hanchans": 8, "accredited": True, "open": True,
             "results": [{"player": "p1", "place": 1}]},
        ],
    }  # fmt: skip


def test_rate_document_end_to_end():
    # W: t1 = 1.00 + 1.60 = 2.60 (A 100 %), t2 = 0.50 + 1.90 = 2.40 (12 months: A 85.71 %), t3 = 0.40 + 0.80 = 1.20.
    # p1: t1 1st -> 2 600.00; t2 5th of 20 -> 2.40 * 789.47 * 0.8571 = 1 623.98; t3 16th of 16 -> 0.
    #   part A = 4 223.98 / (2.60 + 2.057040 + 1.20 + 2 * 1) = 4 223.98 / 7.85704 = 537.60
    #   MAXK = 2.60 + 2.05704 + 1.20 + 1 = 6.85704; part B = 4 223.98 / 6.85704 = 616.01; rating 576.81
    # p2: t1 2nd of 40 -> 2.60 * 974.36 = 2 533.33; t3 1st -> 1 200.00
    #   part A = 3 733.33 / (2.60 + 1.20 + 3) = 549.02; part B = 3 733.33 / 6.85704 = 544.45; rating 546.74
    out = rate_document(document())
    assert out["as_of"] == "2025-06-01"
    summary = [{key: row[key] for key in ("rank", "player", "rating", "part_a", "part_b", "tournaments")}
               for row in out["list"]]  # fmt: skip
    assert summary == [
        {"rank": 1, "player": "p1", "rating": 576.81, "part_a": 537.60, "part_b": 616.01, "tournaments": 3},
        {"rank": 2, "player": "p2", "rating": 546.74, "part_a": 549.02, "part_b": 544.45, "tournaments": 2},
    ]
    assert out["excluded"] == [
        {"tournament": "t7", "reason": "fewer than 16 players", "reason_ru": "меньше 16 игроков"},
        {"tournament": "t8", "reason": "older than two years", "reason_ru": "старше двух лет"},
    ]
    details = {row["tournament"]: row for row in out["list"][0]["details"]}
    assert details["t2"] == {
        "tournament": "t2", "place": 5, "players": 20, "hanchans": 10, "w": 2.40, "r": 789.47, "a": 85.71,
        "delta": 1623.98, "part_a": True, "part_b": True,
    }  # fmt: skip
    explanation = out["list"][0]["explanation"]
    assert "4 223.98 / 7.85704 = 537.60" in explanation["en"]
    assert (
        "(2 600.00 + 1 623.98 + 0.00 + 0) / (2.60 + 2.05704 + 1.20 + 1.00) = 4 223.98 / 6.85704 = 616.01"
        in (explanation["en"])
    )
    assert "часть A" in explanation["ru"]


def test_rate_document_crr_and_online_systems():
    doc = document()
    doc["system"] = "mahjong-crr"
    crr = rate_document(doc)
    assert [row["tournament"] for row in crr["excluded"]] == ["t8"]  # 15 players are enough for CRR
    doc["system"] = "mahjong-online"
    online = rate_document(doc)
    assert online["list"] == []
    assert online["excluded"][0]["reason"] == "not an online tournament"


def test_foreigners_are_not_listed_in_rr_but_count_in_n():
    out = rate_document(document())
    assert "p4" not in [row["player"] for row in out["list"]]


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


# --- Eligibility: RR -----------------------------------------------------------------------------------------------


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


# --- Eligibility: CRR ----------------------------------------------------------------------------------------------


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


# --- Eligibility: online -------------------------------------------------------------------------------------------


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


# --- Settings ------------------------------------------------------------------------------------------------------


def test_settings_from_params_changes_thresholds_and_country():
    custom = list_settings_from_params({"min_players": 20, "country": "UA", "full_rules_from": None}, preset="rr")
    assert (custom.min_players, custom.country, custom.full_rules_from) == (20, "UA", None)
    assert reasons_en(make(players=19, country="UA"), custom) == ["fewer than 20 players"]


def test_settings_from_params_rejects_unknown_keys_and_bad_values():
    with pytest.raises(EngineError, match=r"^colour:"):
        list_settings_from_params({"colour": "red"})
    with pytest.raises(EngineError, match=r"^min_players:"):
        list_settings_from_params({"min_players": "many"})
    with pytest.raises(EngineError, match=r"^rank_restricted_from:"):
        list_settings_from_params({"rank_restricted_from": "soon"}, preset="online")


# --- rate_document: bad input --------------------------------------------------------------------------------------


def bad(doc_change) -> str:
    doc = document()
    doc_change(doc)
    with pytest.raises(EngineError) as error:
        rate_document(doc)
    return str(error.value)


def test_bad_place_larger_than_players():
    def change(doc):
        doc["tournaments"][3]["players"] = 40
        doc["tournaments"][3]["results"] = [{"player": f"x{i}", "place": i + 1} for i in range(7)]
        doc["tournaments"][3]["results"].append({"player": "p1", "place": 41})

    assert bad(change) == "tournaments[3].results[7].place: 41 is larger than players (40)"


def test_bad_date():
    def change(doc):
        doc["tournaments"][1]["end_date"] = "2025-13-01"

    assert bad(change) == "tournaments[1].end_date: '2025-13-01' is not a date (YYYY-MM-DD)"


def test_bad_as_of():
    assert bad(lambda doc: doc.update(as_of="yesterday")).startswith("as_of:")


def test_bad_player_twice_in_a_tournament():
    def change(doc):
        doc["tournaments"][0]["results"][2]["player"] = "p1"

    assert bad(change) == "tournaments[0].results[2].player: 'p1' appears twice in this tournament (results[0])"


def cutoff_doc(doc):
    doc["tournaments"][0] = {
        "id": "c", "end_date": "2025-04-01", "players": 28, "accredited": True, "open": True,
        "stages": [{"hanchans": 10}, {"hanchans": 10}],
        "results": [{"player": "p1", "place": 1, "hanchans": 20}, {"player": "p2", "place": 9, "hanchans": 10}],
    }  # fmt: skip


def test_cutoff_document_is_rated_with_per_player_w():
    doc = document()
    cutoff_doc(doc)
    doc["tournaments"][0]["stages"][1]["players"] = 8
    out = rate_document(doc)
    by_player = {row["player"]: {d["tournament"]: d for d in row["details"]} for row in out["list"]}
    assert by_player["p1"]["c"]["w"] == 3.18
    assert by_player["p2"]["c"]["w"] == 2.73
    assert out["maxk"][0] == {"tournament": "c", "w": 3.18, "a": 1.0, "wa": 3.18}


def test_bad_hanchans_more_than_the_stages_hold():
    def change(doc):
        cutoff_doc(doc)
        doc["tournaments"][0]["results"][0]["hanchans"] = 25

    assert bad(change) == "tournaments[0].results[0].hanchans: 25 is more than the stages hold (20)"


def test_bad_stages_without_per_result_hanchans():
    def change(doc):
        cutoff_doc(doc)
        del doc["tournaments"][0]["results"][1]["hanchans"]

    assert bad(change).startswith("tournaments[0].results[1].hanchans: missing")


def test_bad_hanchans_not_the_sum_of_the_stages():
    def change(doc):
        cutoff_doc(doc)
        doc["tournaments"][0]["hanchans"] = 18

    assert bad(change) == "tournaments[0].hanchans: 18 is not the sum of the stages (20)"


def test_bad_system_flag_and_missing_fields():
    assert bad(lambda doc: doc.update(system="mahjong-xx")).startswith("system:")
    assert (
        bad(lambda doc: doc["tournaments"][0].update(open="yes")) == "tournaments[0].open: 'yes' is not true or false"
    )
    assert bad(lambda doc: doc["tournaments"][2].pop("players")) == "tournaments[2].players: missing"
    assert bad(lambda doc: doc["tournaments"][2].pop("hanchans")) == "tournaments[2].hanchans: missing"
    assert bad(lambda doc: doc.pop("tournaments")) == "tournaments: missing"


def test_bad_tournament_id_twice_and_too_many_results():
    assert bad(lambda doc: doc["tournaments"][1].update(id="t1")).startswith("tournaments[1].id: 't1' appears twice")

    def change(doc):
        doc["tournaments"][1]["players"] = 2
        doc["tournaments"][1]["results"] = [{"player": f"x{i}", "place": 1} for i in range(3)]

    assert bad(change) == "tournaments[1].results: 3 results but players is 2"


def test_missing_flags_default_to_false():
    doc = document()
    del doc["tournaments"][0]["open"]
    out = rate_document(doc)
    assert {"tournament": "t1", "reason": "not open", "reason_ru": "не открытый"} in out["excluded"]
