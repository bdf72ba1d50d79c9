"""DIRS engine: the examples of `rules/go.md`, part 2, the handicap table, rated games, properties, the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.common import EngineError
from ratings.engines.dirs import (
    DAN,
    KOMI_NONE,
    KOMI_NORMAL,
    KOMI_REVERSE,
    KYU,
    DirsPlayer,
    Rank,
    check_rated,
    climb,
    fall,
    parse_rank,
    prescribed_handicap,
    rank_of,
    rate_document,
    rate_game,
    rating_from_rank,
    step_size,
    tournament_step_cap,
)

# --- scales ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "rank"),
    [
        (0, Rank(KYU, 21)),
        (9, Rank(KYU, 21)),
        (160, Rank(KYU, 5)),
        (200, Rank(KYU, 1)),
        (209, Rank(KYU, 1)),
        (210, Rank(DAN, 1)),
        (259, Rank(DAN, 5)),
        (290, Rank(DAN, 9)),
        (350, Rank(DAN, 9)),  # no ceiling: everything from 290 up is 9 dan
    ],
)
def test_rank_of(rating, rank):
    assert rank_of(rating) == rank


def test_rank_labels():
    assert str(Rank(KYU, 5)) == "5 kyu"
    assert Rank(DAN, 2).short == "2d"
    assert Rank(DAN, 2).explanation.ru == "2 дан"


@pytest.mark.parametrize(
    ("number", "kind", "rating"),
    [(21, KYU, 0), (5, KYU, 160), (1, KYU, 200), (1, DAN, 210), (9, DAN, 290)],
)
def test_rating_from_declared_rank(number, kind, rating):
    assert rating_from_rank(number, kind) == rating
    assert rank_of(rating) == Rank(kind, number)


def test_parse_rank_and_bad_ranks():
    assert parse_rank("5k") == Rank(KYU, 5)
    assert parse_rank("2 dan") == Rank(DAN, 2)
    for text in ("22k", "10d", "0k", "strong"):
        with pytest.raises(EngineError, match=r"^rank: "):
            parse_rank(text)


# --- handicap and komi -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "stones", "komi", "pairable"),
    [
        (150, 150, 0, KOMI_NORMAL, True),  # d = 0
        (150, 154, 0, KOMI_NORMAL, True),  # d = 4: even game
        (150, 155, 1, KOMI_NONE, True),  # d = 5: t + 1 = 1 stone, no komi
        (150, 137, 1, KOMI_REVERSE, True),  # d = 13: t = 1, u = 3: 1 stone, reverse komi (RATE_CLI example)
        (100, 117, 2, KOMI_NONE, True),  # d = 17: t + 1 = 2
        (100, 140, 4, KOMI_REVERSE, True),  # d = 40
        (0, 94, 9, KOMI_REVERSE, True),  # d = 94: the most, 9 stones
        (0, 89, 9, KOMI_NONE, True),  # d = 89: 8 + 1 = 9 stones
        (0, 95, 0, KOMI_NORMAL, False),  # d = 95: would need 10 stones
        (0, 200, 0, KOMI_NORMAL, False),
    ],
)
def test_prescribed_handicap(a, b, stones, komi, pairable):
    handicap = prescribed_handicap(a, b)
    assert (handicap.stones, handicap.komi, handicap.pairable) == (stones, komi, pairable)
    assert prescribed_handicap(b, a) == handicap


def test_rated_only_on_the_prescribed_handicap_with_the_weaker_on_black():
    assert check_rated(150, 137, 1, KOMI_REVERSE).rated
    assert not check_rated(150, 137, 1, KOMI_NONE).rated  # wrong komi
    assert not check_rated(150, 137, 2, KOMI_REVERSE).rated  # wrong handicap
    assert not check_rated(150, 137, 0, KOMI_NORMAL).rated  # played even
    reversed_colours = check_rated(137, 150, 1, KOMI_REVERSE)
    assert not reversed_colours.rated
    assert "weaker" in reversed_colours.reason.en
    assert check_rated(150, 150, 0, KOMI_NORMAL).rated  # equal: either colour
    assert not check_rated(152, 150, 0, KOMI_NONE).rated
    assert not check_rated(195, 100, 9, KOMI_REVERSE).rated  # 95 apart: cannot be paired


# --- the update --------------------------------------------------------------------------------------------------


def test_step_sizes():
    assert [step_size(r) for r in (0, 99, 100, 199, 200, 290, 400)] == [3, 3, 2, 2, 1, 1, 1]


def test_worked_example_95_with_acceleration_4_crosses_into_the_next_range():
    # Acceleration 3 before the win, 4 after: n = ceil(4/(4 - 3)) = 4 steps, the last two of size 2.
    up = climb(DirsPlayer(95, 3))
    assert up.acceleration == 4
    assert up.path == (95, 98, 101, 103, 105)
    assert up.rating == 105


def streak(start: int, wins: int = 5, **kwargs) -> list[int]:
    player, gains = DirsPlayer(start, 0), []
    for _ in range(wins):
        up = climb(player, **kwargs)
        gains.append(up.rating - player.rating)
        player = DirsPlayer(up.rating, up.acceleration)
    return gains


def test_streak_low_kyu_3_6_9_12_15():
    # step 3, n = ceil(a/1) = a: 000 -> 003 -> 009 -> 018 -> 030 -> 045
    assert streak(0) == [3, 6, 9, 12, 15]


def test_streak_high_kyu_2_2_4_4_6():
    # step 2, n = ceil(a/2): 1, 1, 2, 2, 3 steps: 100 -> 102 -> 104 -> 108 -> 112 -> 118
    assert streak(100) == [2, 2, 4, 4, 6]


def test_streak_dan_1_1_1_2_2():
    # step 1, n = ceil(a/3): 1, 1, 1, 2, 2 steps: 210 -> 211 -> 212 -> 213 -> 215 -> 217
    assert streak(210) == [1, 1, 1, 2, 2]


def test_streak_after_a_loss_starts_again():
    player = DirsPlayer(30, 4)
    lost = fall(player)
    assert lost == DirsPlayer(27, 0)
    assert climb(lost).rating == 30


def test_loss_takes_one_step_of_its_range_and_never_goes_below_000():
    assert fall(DirsPlayer(100, 5)) == DirsPlayer(98, 0)
    assert fall(DirsPlayer(200, 1)) == DirsPlayer(199, 0)
    assert fall(DirsPlayer(2, 0)) == DirsPlayer(0, 0)
    assert fall(DirsPlayer(0, 0)) == DirsPlayer(0, 0)


def test_tournament_step_cap():
    # Acceleration 4 at low kyu would be 4 steps; with one round left after this one, at most 2.
    assert tournament_step_cap(1) == 2
    up = climb(DirsPlayer(0, 3), max_steps=tournament_step_cap(1))
    assert up.path == (0, 3, 6)
    assert up.uncapped_steps == 4
    assert climb(DirsPlayer(0, 3), max_steps=tournament_step_cap(0)).rating == 3  # last round: one step
    assert streak(0, max_steps=2) == [3, 6, 6, 6, 6]


def test_rate_game_updates_both_players():
    outcome = rate_game(DirsPlayer(150, 0), DirsPlayer(137, 2), winner="white", handicap=1, komi=KOMI_REVERSE)
    assert outcome.rated
    assert outcome.white_after == DirsPlayer(152, 1)
    assert outcome.black_after == DirsPlayer(135, 0)
    assert "150 -> 152" in outcome.explanation.en
    assert "Победитель" in outcome.explanation.ru
    unrated = rate_game(DirsPlayer(150, 0), DirsPlayer(137, 2), winner="black", handicap=0, komi=KOMI_NORMAL)
    assert not unrated.rated
    assert (unrated.white_after, unrated.black_after) == (DirsPlayer(150, 0), DirsPlayer(137, 2))
    assert "not rated" in unrated.explanation.en


# --- properties --------------------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=0, max_value=320),
    st.lists(st.tuples(st.booleans(), st.integers(min_value=0, max_value=320)), max_size=60),
)
def test_dirs_never_goes_below_000(start, results):
    player = DirsPlayer(start, 0)
    for won, opponent in results:
        white, black = (player, DirsPlayer(opponent)) if player.rating >= opponent else (DirsPlayer(opponent), player)
        handicap = prescribed_handicap(white.rating, black.rating)
        me_white = white is player
        winner = "white" if won == me_white else "black"
        outcome = rate_game(white, black, winner=winner, handicap=handicap.stones, komi=handicap.komi)
        player = outcome.white_after if me_white else outcome.black_after
        assert player.rating >= 0
        assert outcome.white_after.rating >= 0
        assert outcome.black_after.rating >= 0


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=400), st.integers(min_value=0, max_value=30))
def test_a_win_never_lowers_and_a_loss_never_raises(rating, acceleration):
    player = DirsPlayer(rating, acceleration)
    assert climb(player).rating > rating
    assert fall(player).rating <= rating


# --- manage.py rate ----------------------------------------------------------------------------------------------


def test_rate_document_the_cli_example():
    out = rate_document(
        {
            "system": "dirs",
            "ratings": {"ann": 150, "bob": 137},
            "games": [{"white": "ann", "black": "bob", "winner": "ann", "handicap": 1, "komi": "reverse"}],
        }
    )
    assert out["ratings"] == {"ann": 152, "bob": 135}
    assert out["accelerations"] == {"ann": 1, "bob": 0}
    game = out["games"][0]
    assert {k: game[k] for k in ("rated", "white_after", "black_after")} == {
        "rated": True,
        "white_after": 152,
        "black_after": 135,
    }
    assert set(game["explanation"]) == {"en", "ru"}


def test_rate_document_unrated_game_newcomers_and_unknown_keys():
    out = rate_document(
        {
            "system": "dirs",
            "ratings": {"ann": 150, "idle": 40},
            "games": [
                {"white": "ann", "black": "new", "winner": "new", "handicap": 9, "komi": "none", "board": 19},
                {"white": "new", "black": "kid", "winner": "new"},
            ],
            "club": "ignored",
        }
    )
    assert out["games"][0]["rated"] is False  # 150 apart: cannot be paired
    assert out["games"][1]["rated"] is True  # 000 and 000, even game
    assert out["ratings"] == {"ann": 150, "idle": 40, "new": 3, "kid": 0}
    assert out["accelerations"]["new"] == 1


def test_rate_document_tournament_step_cap():
    out = rate_document(
        {
            "ratings": {"ann": 0, "bob": 0},
            "accelerations": {"ann": 3},
            "games": [{"white": "ann", "black": "bob", "winner": "ann", "rounds_left": 0}],
        }
    )
    assert out["ratings"]["ann"] == 3


@pytest.mark.parametrize(
    ("game", "field", "message"),
    [
        ({"white": "ann", "black": "bob", "winner": "carl"}, "games[0].winner", '"carl" is neither white nor black'),
        ({"white": "ann", "black": "ann", "winner": "ann"}, "games[0].black", "also white"),
        ({"white": "ann", "winner": "ann"}, "games[0].black", "missing"),
        ({"white": "ann", "black": "bob", "winner": "ann", "handicap": -1}, "games[0].handicap", "whole number"),
        ({"white": "ann", "black": "bob", "winner": "ann", "komi": "half"}, "games[0].komi", "normal, none"),
    ],
)
def test_rate_document_bad_games(game, field, message):
    with pytest.raises(EngineError) as error:
        rate_document({"system": "dirs", "ratings": {}, "games": [game]})
    assert error.value.field == field
    assert message in error.value.message


def test_rate_document_winner_message_is_one_clear_line():
    with pytest.raises(EngineError) as error:
        rate_document({"games": [{"white": "ann", "black": "bob", "winner": "carl"}]})
    assert str(error.value) == 'games[0].winner: "carl" is neither white nor black'


def test_rate_document_bad_ratings():
    with pytest.raises(EngineError, match=r"^ratings\.ann: -5 is below 000"):
        rate_document({"ratings": {"ann": -5}, "games": []})
    with pytest.raises(EngineError, match=r"^ratings\.ann: "):
        rate_document({"ratings": {"ann": 12.5}, "games": []})


def test_engine_imports_no_django():
    code = "import sys, ratings.engines.dirs; print(sorted({m.split('.')[0] for m in sys.modules} & {'django'}))"
    root = Path(__file__).resolve().parents[3]
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert result.stdout.strip() == "[]"
