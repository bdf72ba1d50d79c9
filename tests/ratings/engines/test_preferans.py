"""Preferans engine: the worked examples of `rules/preferans.md`, bots, leagues, properties, ``rate_document``."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.common import EngineError
from ratings.engines.preferans import (
    AMATEUR,
    PRO,
    DealRun,
    DealWhists,
    PlayerState,
    PreferansSettings,
    deal_delta,
    expected_whists,
    new_player,
    rate_deal,
    rate_deals,
    rate_document,
    table_rating,
)


def human(rating: float, league: str = AMATEUR) -> PlayerState:
    return PlayerState(rating=rating, max_rating=rating, league=league)


def bot(level_max: float, rating: float | None = None) -> PlayerState:
    value = level_max if rating is None else rating
    return PlayerState(rating=value, max_rating=value, league=AMATEUR, bot_max=level_max)


# --- worked examples --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rs", "rt", "vs", "kv", "vf", "kd", "rd"),
    [
        (1000, 1800, -5, 96.364, -8.3019, 1.0234, 1.8597),
        (1000, 1800, 10, 96.364, -8.3019, 1.0234, 4.3782),
        (2000, 1500, 4, 143.333, 3.4884, 1.1248, 0.8045),
        (2000, 1500, 10, 143.333, 3.4884, 1.1248, 2.8702),
    ],
)
def test_worked_examples(rs, rt, vs, kv, vf, kd, rd):
    assert deal_delta(rs, rt, vs) == pytest.approx(rd, abs=5e-5)
    assert expected_whists(rs, rt) == pytest.approx(vf, abs=5e-5)
    # The same numbers through a whole deal (2 at the table: Rt is the opponent's rating).
    outcome = rate_deal({"me": human(rs), "you": human(rt)}, {"me": vs, "you": -vs})
    change = outcome.changes[0]
    assert change.table_rating == rt
    assert change.kv == pytest.approx(kv, abs=5e-4)
    assert change.expected == pytest.approx(vf, abs=5e-5)
    assert change.kd == pytest.approx(kd, abs=5e-5)
    assert change.delta == pytest.approx(rd, abs=5e-5)


def test_worked_example_table_of_three():
    players = {"a": human(1000), "b": human(1800), "c": human(1800)}
    outcome = rate_deal(players, {"a": -5, "b": 3, "c": 2})
    after = outcome.players
    assert after["a"].rating == pytest.approx(1001.8597, abs=5e-5)
    assert after["b"].rating == pytest.approx(1800.8546, abs=5e-5)
    assert after["c"].rating == pytest.approx(1799.0491, abs=5e-5)
    assert outcome.changes[0].table_rating == 1800
    assert outcome.changes[1].table_rating == pytest.approx(1533.3333, abs=5e-5)


def test_explanation_shows_the_numbers_in_both_languages():
    change = rate_deal({"me": human(1000), "you": human(1800)}, {"me": -5, "you": 5}).changes[0]
    assert "Kv = 60 + (Rt - Rs)/Y = 60 + (1800 - 1000)/22 = 96.364" in change.explanation.en
    assert "Vf = min((Rs - Rt)/Kv, 4) = min(-800/96.364, 4) = -8.3019" in change.explanation.en
    assert "+1.8597" in change.explanation.en
    assert "висты" in change.explanation.ru


def test_table_rating():
    assert table_rating([1500]) == 1500
    assert table_rating([1000, 1800]) == pytest.approx((2 * 1800 + 1000) / 3)
    assert table_rating([1200, 1800, 1500]) == pytest.approx((3 * 1800 + 2 * 1500 + 1200) / 6)


def test_expected_whists_are_capped_at_4():
    assert expected_whists(3000, 1000) == 4


def test_kd_is_clamped():
    # diff 0: 2/(1 + 0) = 2 (the maximum); a huge difference would go below 0.3.
    assert rate_deal({"a": human(1000), "b": human(1000)}, {"a": 1, "b": -1}).changes[0].kd == 2.0
    far = rate_deal({"a": human(1000), "b": human(10**9)}, {"a": 1, "b": -1}).changes[0]
    assert far.kd == 0.3


# --- smoothing, bots, peaks, leagues ------------------------------------------------------------------------------


def test_smoothing_above_4000_multiplies_a_gain_only():
    raw = deal_delta(4000, 1000, 10)
    assert deal_delta(5000, 2000, 10) == pytest.approx(raw * 4000 / 5000)
    assert deal_delta(5000, 2000, -10) == pytest.approx(deal_delta(4000, 1000, -10))
    change = rate_deal({"a": human(5000), "b": human(2000)}, {"a": 10, "b": -10}).changes[0]
    assert change.smoothing == 0.8
    assert "smoothing above 4000" in change.explanation.en


def test_bot_is_clamped_to_its_level_maximum():
    outcome = rate_deal({"bot": bot(1800), "a": human(1000)}, {"bot": 10, "a": -10})
    assert outcome.players["bot"].rating == 1800
    assert outcome.changes[0].delta == 0


def test_human_against_bots_only_cannot_pass_their_highest_maximum():
    players = {"me": human(1795), "easy": bot(1400), "hard": bot(1800)}
    outcome = rate_deal(players, {"me": 30, "easy": -15, "hard": -15})
    assert outcome.players["me"].rating == 1800
    assert outcome.changes[0].ceiling == 1800
    above = {"me": human(1900), "easy": bot(1400), "hard": bot(1800)}
    assert rate_deal(above, {"me": 30, "easy": -15, "hard": -15}).changes[0].delta == 0
    # Losses apply as usual.
    assert rate_deal(above, {"me": -30, "easy": 15, "hard": 15}).changes[0].delta < 0


def test_one_human_opponent_lifts_the_ceiling():
    players = {"me": human(1795), "other": human(1000), "hard": bot(1800)}
    outcome = rate_deal(players, {"me": 30, "other": -15, "hard": -15})
    assert outcome.players["me"].rating > 1800
    assert outcome.changes[0].ceiling is None


def test_reaching_1800_promotes_for_good_and_the_peak_is_kept():
    deals = [DealWhists("g", {"me": 40, "you": -40})] * 3 + [DealWhists("g", {"me": -40, "you": 40})] * 3
    ledger = rate_deals(deals, {"me": human(1790), "you": human(1800)})
    me = ledger.players["me"]
    assert me.league == PRO
    assert me.rating < 1800
    assert me.max_rating > 1800
    assert me.max_rating > me.rating


def test_newcomers_and_bots_start_right():
    assert new_player().rating == 1000
    assert new_player(bot_max=2400).rating == 2400
    ledger = rate_deals([DealWhists("g", {"new": 0, "bot": 0})], bots={"bot": 1400.0})
    # A newcomer (1000) against a fresh bot (1400): Vf is negative, so 0 whists gain, and the bot loses.
    assert ledger.players["new"].rating > 1000
    assert ledger.players["bot"].rating < 1400
    assert ledger.players["bot"].is_bot
    ledger = rate_deals([DealWhists("g", {"new": 0, "old": 0})])
    assert ledger.players["new"].rating == 1000
    assert ledger.players["old"].rating == 1000


def test_custom_settings():
    custom = PreferansSettings(y=8.0)
    # With Y = 8 the seed's prose holds: 1000 against 1800 breaks even at -5 whists.
    assert expected_whists(1000, 1800, custom) == pytest.approx(-800 / (60 + 100))
    with pytest.raises(EngineError, match=r"^settings\.x: "):
        PreferansSettings(x=0)


def _random_series(seed: int, humans: int, games: int, deals_per_game: int) -> list[DealWhists]:
    """Games of 2 to 4 among ``humans`` players and two bots, each of a few deals with whists summing to zero."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(humans)] + ["bot-easy", "bot-hard"]
    deals = []
    for game in range(games):
        table = rng.sample(names, rng.choice((2, 3, 4)))
        for _ in range(deals_per_game):
            whists = [rng.randint(-40, 40) for _ in table[1:]]
            deals.append(DealWhists(f"g{game}", dict(zip(table, [-sum(whists), *whists], strict=True))))
    return deals


def test_bulk_path_equals_the_recorded_path():
    deals = _random_series(7, humans=12, games=300, deals_per_game=5)
    start = {"p0": human(4500.0), "p1": human(1795.0), "p2": human(2500.0, PRO)}
    bots = {"bot-easy": 1400.0, "bot-hard": 2400.0}
    fast = rate_deals(deals, start, bots=bots)
    slow = rate_deals(deals, start, bots=bots, record=True)
    assert fast.outcomes is None
    assert len(slow.outcomes) == len(deals)
    assert fast.players.keys() == slow.players.keys()
    for name, state in fast.players.items():
        other = slow.players[name]
        assert state.rating == pytest.approx(other.rating, abs=1e-9)
        assert state.max_rating == pytest.approx(other.max_rating, abs=1e-9)
        assert state.league == other.league
    assert fast.players["bot-hard"].rating <= 2400


def test_a_run_steps_deal_by_deal_as_the_recorded_path():
    """The bulk import writes each player's before and after from ``DealRun``'s steps: they are the recorded path's."""
    deals = _random_series(11, humans=10, games=120, deals_per_game=4)
    start = {"p0": human(4500.0), "p1": human(1795.0), "p2": human(2500.0, PRO)}
    bots = {"bot-easy": 1400.0, "bot-hard": 2400.0}
    slow = rate_deals(deals, start, bots=bots, record=True)
    for checked in (False, True):
        run = DealRun(deals, start, bots=bots, checked=checked)
        steps = list(run)
        assert len(steps) == len(deals)
        for (names_, before, after, pro_before, deltas), outcome in zip(steps, slow.outcomes, strict=True):
            assert names_ == [change.player for change in outcome.changes]
            # Exactly the same floats: the site's stored rows and ``manage.py rate`` print the same numbers.
            assert before == [change.before.rating for change in outcome.changes]
            assert after == [change.after.rating for change in outcome.changes]
            assert deltas == [change.delta for change in outcome.changes]
            assert pro_before == [change.before.league == PRO for change in outcome.changes]
        assert run.players().keys() == slow.players.keys()
        for name, state in run.players().items():
            assert state.rating == pytest.approx(slow.players[name].rating, abs=1e-9)
            assert state.league == slow.players[name].league


def test_a_run_checks_its_deals_unless_told_they_are_checked():
    with pytest.raises(EngineError, match=r"^deals\[0\]\.whists: the whists sum to 1"):
        list(DealRun([DealWhists("g", {"a": 1, "b": 0})]))


# --- properties --------------------------------------------------------------------------------------------------

ratings_strategy = st.floats(min_value=0, max_value=6000, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(ratings_strategy, ratings_strategy)
def test_no_change_when_the_whists_equal_the_expectation(rs, rt):
    assert deal_delta(rs, rt, expected_whists(rs, rt)) == 0


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1, max_value=6000), st.integers(min_value=-20, max_value=20))
def test_equal_ratings_and_zero_whists_change_nothing(rating, shift):
    outcome = rate_deal({"a": human(rating), "b": human(rating)}, {"a": 0, "b": 0})
    assert [c.delta for c in outcome.changes] == [0, 0]
    assert deal_delta(rating, rating, 0) == 0
    assert (deal_delta(rating, rating, shift) > 0) == (shift > 0)


@st.composite
def tables(draw):
    size = draw(st.integers(min_value=2, max_value=4))
    ratings = draw(st.lists(ratings_strategy, min_size=size, max_size=size))
    whists = draw(st.lists(st.integers(min_value=-50, max_value=50), min_size=size - 1, max_size=size - 1))
    moved = draw(st.integers(min_value=1, max_value=20))
    receiver = draw(st.integers(min_value=0, max_value=size - 1))
    giver = draw(st.integers(min_value=0, max_value=size - 2))
    giver = giver if giver < receiver else giver + 1
    return ratings, [-sum(whists), *whists], moved, receiver, giver


@settings(max_examples=300, deadline=None)
@given(tables())
def test_more_whists_give_a_higher_delta(table):
    ratings, whists, moved, receiver, giver = table
    names = [f"p{i}" for i in range(len(ratings))]
    players = {name: human(rating) for name, rating in zip(names, ratings, strict=True)}
    before = rate_deal(players, dict(zip(names, whists, strict=True)))
    whists[receiver] += moved
    whists[giver] -= moved
    after = rate_deal(players, dict(zip(names, whists, strict=True)))
    assert after.changes[receiver].delta > before.changes[receiver].delta
    assert after.changes[giver].delta < before.changes[giver].delta
    for i in range(len(names)):
        if i not in (receiver, giver):
            assert after.changes[i].delta == before.changes[i].delta


@settings(max_examples=200, deadline=None)
@given(tables())
def test_the_sign_of_the_delta_follows_the_expectation(table):
    ratings, whists, _, _, _ = table
    names = [f"p{i}" for i in range(len(ratings))]
    players = {name: human(rating) for name, rating in zip(names, ratings, strict=True)}
    for change in rate_deal(players, dict(zip(names, whists, strict=True))).changes:
        if change.whists > change.expected:
            assert change.delta > 0
        elif change.whists < change.expected:
            assert change.delta < 0


# --- manage.py rate ----------------------------------------------------------------------------------------------


def test_rate_document_the_worked_table():
    out = rate_document(
        {
            "system": "preferans",
            "ratings": {"a": 1000, "b": 1800, "c": 1800, "idle": 1234.5},
            "deals": [{"game": "g1", "whists": {"a": -5, "b": 3, "c": 2}}],
            "note": "unknown keys are tolerated",
        }
    )
    assert {"ratings", "max_ratings", "leagues"} <= set(out)
    assert out["ratings"]["a"] == pytest.approx(1001.8597, abs=5e-5)
    assert out["ratings"]["b"] == pytest.approx(1800.8546, abs=5e-5)
    assert out["ratings"]["c"] == pytest.approx(1799.0491, abs=5e-5)
    assert out["ratings"]["idle"] == 1234.5
    assert out["max_ratings"]["c"] == 1800
    assert out["leagues"] == {"a": AMATEUR, "b": PRO, "c": PRO, "idle": AMATEUR}
    change = out["deals"][0]["changes"][0]
    assert change["player"] == "a"
    assert set(change["explanation"]) == {"en", "ru"}


def test_rate_document_the_cli_example_with_a_bot():
    out = rate_document(
        {
            "system": "preferans",
            "ratings": {"ann": 1000},
            "bots": {"bot-normal": 1800},
            "deals": [{"game": "g1", "whists": {"ann": -5, "bot-normal": 3, "bob": 2}}],
        }
    )
    assert set(out["ratings"]) == {"ann", "bot-normal", "bob"}
    assert out["ratings"]["bot-normal"] <= 1800
    assert out["ratings"]["bob"] > 1000  # 1000 against (2·1800 + 1000)/3: +2 whists beat a negative expectation


def deals_doc(*deals):
    return {"system": "preferans", "ratings": {}, "deals": list(deals)}


@pytest.mark.parametrize(
    ("doc", "field", "message"),
    [
        (
            deals_doc({"game": "g", "whists": {"a": 1, "b": 1, "c": 1, "d": 1, "e": -4}}),
            "deals[0].whists",
            "this one has 5",
        ),
        (deals_doc({"game": "g", "whists": {"a": 0}}), "deals[0].whists", "this one has 1"),
        (deals_doc({"game": "g", "whists": {"a": 1, "b": 1, "c": 1}}), "deals[0].whists", "sum to 3, not to zero"),
        (deals_doc({"game": "g", "whists": {"a": 1.5, "b": -1.5}}), "deals[0].whists", 'player "a": 1.5'),
        (deals_doc({"game": "g", "whists": {"a": "2", "b": -2}}), "deals[0].whists", "whole number"),
        (
            deals_doc({"game": "g", "whists": {"a": 1, "b": -1}}, {"game": "g", "whists": {"a": 1, "x": -1}}),
            "deals[1].whists",
            'player "x" is not at the table of game "g"',
        ),
        (deals_doc({"game": "g"}), "deals[0].whists", "missing"),
        ({"deals": [], "ratings": {"a": "high"}}, "ratings.a", "not a number"),
        ({"deals": [], "bots": {"b": None}}, "bots.b", "not a number"),
        ({"deals": "none"}, "deals", "not a list"),
    ],
)
def test_rate_document_bad_input(doc, field, message):
    with pytest.raises(EngineError) as error:
        rate_document(doc)
    assert error.value.field == field
    assert message in error.value.message


def test_rate_document_a_seat_taken_over_is_declared_with_players():
    out = rate_document(
        deals_doc(
            {"game": "g", "whists": {"a": 1, "b": -1, "c": 0}},
            {"game": "g", "players": ["a", "b", "bot"], "whists": {"a": 1, "b": -1, "bot": 0}},
        )
    )
    assert set(out["ratings"]) == {"a", "b", "c", "bot"}


def test_engine_imports_no_django():
    code = "import sys, ratings.engines.preferans; print(sorted({m.split('.')[0] for m in sys.modules} & {'django'}))"
    root = Path(__file__).resolve().parents[3]
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert result.stdout.strip() == "[]"


def test_rate_document_a_player_who_left_is_missing_from_the_later_deals():
    """RATE_CLI.md: a later deal of a game may lack a player who left; they keep what the played deals gave."""
    out = rate_document(
        deals_doc(
            {"game": "g", "whists": {"a": -5, "b": 3, "c": 2}},
            {"game": "g", "whists": {"a": 4, "b": -4}},
        )
    )
    assert out["ratings"]["c"] == out["deals"][0]["changes"][2]["after"]
    assert [change["player"] for change in out["deals"][1]["changes"]] == ["a", "b"]
    first, second = out["deals"][0]["changes"], out["deals"][1]["changes"]
    assert [change["before"] for change in second] == [first[0]["after"], first[1]["after"]]
    # Two at the table: Rt is the one opponent's rating (rules/preferans.md, "Formula").
    assert "Rt = " + f"{first[1]['after']:.4f}".rstrip("0") in second[0]["explanation"]["en"]


def test_rate_document_starting_peaks_and_leagues():
    """The league follows from the peak (Pro for good from 1800); a league below it, or a peak below the rating, is
    refused with the field named."""
    out = rate_document(
        {
            "system": "preferans",
            "ratings": {"ann": 1700, "bob": 1500},
            "max_ratings": {"ann": 1850.5},
            "leagues": {"bob": "pro"},
        }
    )
    assert out["ratings"] == {"ann": 1700.0, "bob": 1500.0}
    assert out["max_ratings"] == {"ann": 1850.5, "bob": 1500.0}
    assert out["leagues"] == {"ann": PRO, "bob": PRO}
    with pytest.raises(EngineError) as error:
        rate_document(
            {
                "system": "preferans",
                "ratings": {"ann": 1700},
                "max_ratings": {"ann": 1900},
                "leagues": {"ann": "amateur"},
            }
        )
    assert str(error.value).startswith('leagues.ann: "amateur", but the peak 1900 reached the Pro threshold 1800')
    with pytest.raises(EngineError) as error:
        rate_document({"system": "preferans", "ratings": {"ann": 1700}, "max_ratings": {"ann": 1600}})
    assert str(error.value) == "max_ratings.ann: 1600 is below the starting rating 1700"
