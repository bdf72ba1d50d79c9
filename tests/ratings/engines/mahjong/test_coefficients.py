"""Mahjong engine, one tournament's numbers (`rules/mahjong.md`): R, K_players, K_hanchans, W with cut-offs, A and
the delta, with the worked examples' numbers written out. No database."""

from __future__ import annotations

from datetime import date

import pytest

from ratings.engines.mahjong import (
    CutoffStage,
    Placement,
    RatedTournament,
    age_bp,
    age_coefficient,
    base_rank,
    cutoff_w_avg_cents,
    cutoff_w_cents,
    delta_cents,
    k_hanchans,
    k_hanchans_cents,
    k_players,
    k_players_cents,
    tournament_coefficients,
)
from tests.ratings.engines.mahjong.helpers import AS_OF, make

# --- R ---------------------------------------------------------------------------------------------------------------


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


# --- K_players, K_hanchans -------------------------------------------------------------------------------------------


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


# --- A ---------------------------------------------------------------------------------------------------------------

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
