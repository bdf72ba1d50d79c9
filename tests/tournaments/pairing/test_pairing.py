"""Golden tests of the pairing (`rules/go.md`, part 1, "Pairing"): closest levels, no rematch, at most 9 stones, byes,
colours, and the rules a director's manual pairing breaks."""

from __future__ import annotations

import pytest

from ratings.engines.common import EngineError
from tests.tournaments.pairing.examples import five_round_fus
from tournaments.pairing import (
    KOMI_NONE,
    KOMI_REVERSE,
    RULE_ABSENT,
    RULE_BYE_EXTRA,
    RULE_BYE_REPEAT,
    RULE_COLOUR,
    RULE_FIELD_UNPAIRABLE,
    RULE_HANDICAP,
    RULE_HANDICAP_LIMIT,
    RULE_REMATCH,
    RULE_UNPAIRED,
    ByeResult,
    Entrant,
    GameResult,
    Options,
    PairedBoard,
    board_for,
    check_pairing,
    pair_round,
    replay,
)


def _levels(levels: dict[str, int], *, half_stone: bool = True, rounds: int = 9, draws: bool = True) -> tuple:
    """Entrants whose start level is given (ratings are chosen to hit it exactly)."""
    options = Options(rounds=rounds, half_stone=half_stone, acceleration=True, draws_allowed=draws)
    factor = 50 if half_stone else 100
    return options, [Entrant(pid, level * factor) for pid, level in levels.items()]


def _met(pairs: list[tuple[str, str]]) -> list[list[GameResult | ByeResult]]:
    """One drawn round per pair: the history without moving any level."""
    return [[GameResult(a, b, None)] for a, b in pairs]


def test_favourite_plays_the_closest_level():
    options, entrants = _levels({"A": 57, "B": 56, "C": 55, "D": 54})
    pairing = pair_round(replay(options, entrants, []), seed=1)
    assert [(b.white, b.black, b.handicap, b.komi_kind) for b in pairing.boards] == [
        ("A", "B", 1, KOMI_NONE),
        ("C", "D", 1, KOMI_NONE),
    ]


def test_no_rematch():
    options, entrants = _levels({"A": 57, "B": 56, "C": 55, "D": 54})
    state = replay(options, entrants, _met([("A", "B")]))
    pairing = pair_round(state, seed=1)
    assert [(b.white, b.black) for b in pairing.boards] == [("A", "C"), ("B", "D")]


def test_safe_walk_does_not_strand_the_bottom():
    # The plain walk pairs A-B and strands C and D, who have met: the safe walk gives A the closest partner
    # that leaves the rest pairable.
    options, entrants = _levels({"A": 10, "B": 9, "C": 8, "D": 7}, half_stone=False)
    state = replay(options, entrants, _met([("C", "D")]))
    pairing = pair_round(state, seed=1)
    assert [(b.white, b.black) for b in pairing.boards] == [("A", "C"), ("B", "D")]
    assert pairing.issues == ()


def test_at_most_nine_stones_one_stone_mode():
    options, entrants = _levels({"A": 19, "B": 10}, half_stone=False)
    pairing = pair_round(replay(options, entrants, []), seed=1)
    assert [(b.white, b.black, b.handicap) for b in pairing.boards] == [("A", "B", 9)]
    options, entrants = _levels({"A": 20, "B": 10}, half_stone=False)
    pairing = pair_round(replay(options, entrants, []), seed=1)
    assert pairing.boards == ()
    assert pairing.byes == ("A", "B")
    assert [i.rule for i in pairing.issues] == [RULE_FIELD_UNPAIRABLE]
    assert "more than 9 stones away" in pairing.issues[0].explanation.en


def test_at_most_nine_stones_half_stone_mode():
    options, entrants = _levels({"A": 38, "B": 20})
    pairing = pair_round(replay(options, entrants, []), seed=1)
    assert [(b.handicap, b.komi_kind) for b in pairing.boards] == [(9, KOMI_REVERSE)]
    options, entrants = _levels({"A": 39, "B": 20})
    assert pair_round(replay(options, entrants, []), seed=1).boards == ()


def test_odd_field_bye_goes_to_the_lowest_ranked():
    options, entrants = _levels({"A": 30, "B": 29, "C": 28, "D": 27, "E": 26})
    pairing = pair_round(replay(options, entrants, []), seed=1)
    assert pairing.byes == ("E",)
    assert [(b.white, b.black) for b in pairing.boards] == [("A", "B"), ("C", "D")]


def test_bye_never_twice_while_another_has_none():
    options, entrants = _levels({"A": 30, "B": 29, "C": 28, "D": 27, "E": 26})
    state = replay(options, entrants, [[ByeResult("E")]])
    assert state.player("E").level == 27
    pairing = pair_round(state, seed=1)
    # E (27) now ranks equal to D (27) but below by rating? No: E's start rating is lower, so E is last but
    # already had a bye; D is the lowest-ranked player without one.
    assert pairing.byes == ("D",)
    assert pairing.issues == ()


def test_bye_goes_up_when_the_lowest_cannot_take_it():
    # One-stone mode: A and B are more than 9 stones above C, D and E. E could sit out only if C and D could
    # play, but they have met: D, the next one up, takes the bye.
    options, entrants = _levels({"A": 40, "B": 39, "C": 28, "D": 27, "E": 26}, half_stone=False)
    state = replay(options, entrants, _met([("C", "D")]))
    pairing = pair_round(state, seed=1)
    assert pairing.byes == ("D",)
    assert [(b.white, b.black) for b in pairing.boards] == [("A", "B"), ("C", "E")]
    assert pairing.issues == ()


def test_second_bye_is_reported_when_nothing_else_keeps_the_games():
    options, entrants = _levels({"A": 30, "B": 29, "C": 10}, half_stone=False)
    state = replay(options, entrants, [[ByeResult("C")]])
    pairing = pair_round(state, seed=1)
    # C (11) is more than 9 stones from everybody: C sits out again, A and B play.
    assert pairing.byes == ("C",)
    assert [i.rule for i in pairing.issues] == [RULE_BYE_REPEAT]


def test_field_that_cannot_be_paired_gives_most_games_and_reports():
    options, entrants = _levels({"A": 30, "B": 29, "C": 28, "D": 27})
    state = replay(options, entrants, _met([("A", "B"), ("A", "C"), ("A", "D")]))
    pairing = pair_round(state, seed=1)
    assert [(b.white, b.black) for b in pairing.boards] == [("B", "C")]
    assert pairing.byes == ("A", "D")
    assert [i.rule for i in pairing.issues] == [RULE_FIELD_UNPAIRABLE]
    assert pairing.issues[0].explanation.en.startswith(
        "the field cannot be paired without a rematch or more than 9 stones: 1 games and 2 byes instead of 0"
    )
    assert "A: 3 present within 9 stones, 3 of them already met" in pairing.issues[0].explanation.en


def test_absent_players_are_not_paired():
    options = Options.fus(3)
    entrants = [Entrant("A", 2000), Entrant("B", 1990), Entrant("C", 1980, absent=frozenset({1}))]
    pairing = pair_round(replay(options, entrants, []), seed=1)
    assert [(b.white, b.black) for b in pairing.boards] == [("A", "B")]
    assert pairing.byes == ()


def test_colour_lower_level_takes_black():
    options, entrants = _levels({"A": 30, "B": 31})
    board = pair_round(replay(options, entrants, []), seed=1).boards[0]
    assert (board.white, board.black, board.colour_reason) == ("B", "A", "lower level")
    assert board.white_komi == 0.5


def test_colour_equal_levels_more_whites_takes_black():
    options, entrants = _levels({"A": 30, "B": 30, "C": 30, "D": 30})
    state = replay(options, entrants, [[GameResult("A", "C", None), GameResult("D", "B", None)]])
    # A and B have the same rating: name decides the rank, A then B. A had white, B had black.
    pairing = pair_round(state, seed=1)
    board = pairing.boards[0]
    assert (board.white, board.black, board.colour_reason) == ("B", "A", "had white more often")


def test_colour_draw_is_seeded_and_reproducible():
    options, entrants = _levels({"A": 30, "B": 30})
    state = replay(options, entrants, [])
    colours = {}
    for seed in range(20):
        first = pair_round(state, seed=seed).boards[0]
        again = pair_round(state, seed=seed).boards[0]
        assert (first.white, first.black) == (again.white, again.black)
        assert first.colour_reason == "seeded draw"
        colours[seed] = first.white
    assert set(colours.values()) == {"A", "B"}
    default = pair_round(state)
    assert default.seed == pair_round(state).seed
    assert pair_round(state, seed=default.seed) == default


def test_reverse_komi_is_paid_to_black():
    options, entrants = _levels({"A": 30, "B": 28})
    board = pair_round(replay(options, entrants, []), seed=1).boards[0]
    assert (board.handicap, board.komi_kind, board.komi, board.white_komi) == (1, KOMI_REVERSE, 6.5, -6.5)


def test_pairing_after_the_last_round_is_refused():
    options, entrants, games = five_round_fus()
    with pytest.raises(EngineError, match=r"^round: all 5 rounds have been played$"):
        pair_round(replay(options, entrants, games))


# ---------------------------------------------------------------------------------------------------------------
# A director's manual pairing
# ---------------------------------------------------------------------------------------------------------------


def test_check_pairing_accepts_the_engine_pairing():
    options, entrants, games = five_round_fus()
    state = replay(options, entrants, games[:3])
    pairing = pair_round(state, seed=3)
    assert check_pairing(state, pairing.boards, pairing.byes) == ()


def test_check_pairing_reports_each_broken_rule():
    options, entrants = _levels({"A": 40, "B": 39, "C": 20, "D": 19, "E": 18, "F": 10})
    state = replay(options, entrants, [*_met([("A", "B")]), [ByeResult("D")]])
    assert state.player("D").level == 20
    manual = [
        ("A", "B"),  # rematch
        ("E", "D"),  # D (20) ranks above E (18): D should be white
        board_for(state, "C", "F", seed=1),  # 20 - 10 fine
    ]
    wrong = PairedBoard(4, "C", "F", 20, 10, 4, KOMI_NONE, 0.5)
    issues = check_pairing(state, manual)
    assert [(i.rule, i.players) for i in issues] == [
        (RULE_REMATCH, ("A", "B")),
        (RULE_COLOUR, ("E", "D")),
    ]
    issues = check_pairing(state, [("A", "E"), wrong], ["D"], present=["A", "B", "C", "D", "E", "F"])
    rules = [(i.rule, i.players) for i in issues]
    assert (RULE_HANDICAP_LIMIT, ("A", "E")) in rules
    assert (RULE_HANDICAP, ("C", "F")) in rules
    assert (RULE_UNPAIRED, ("B",)) in rules
    assert (RULE_BYE_REPEAT, ("D",)) in rules


def test_check_pairing_handicap_absent_and_extra_bye():
    options, entrants = _levels({"A": 30, "B": 28, "C": 27, "D": 26})
    entrants[3] = Entrant("D", 26 * 50, absent=frozenset({1}))
    state = replay(options, entrants, [])
    wrong = PairedBoard(1, "A", "B", 30, 28, 2, KOMI_NONE, 0.5)
    issues = check_pairing(state, [wrong], ["C", "D"])
    rules = [(i.rule, i.players) for i in issues]
    assert rules[0] == (RULE_HANDICAP, ("A", "B"))
    assert issues[0].explanation.en == "A - B: 2 stones, none komi; the level gap 2 gives 1 stones, reverse komi"
    assert (RULE_ABSENT, ("D",)) in rules
    assert RULE_BYE_EXTRA not in {rule for rule, _ in rules}
    issues = check_pairing(state, [], ["A", "B", "C"])
    assert [(i.rule, i.players) for i in issues] == [(RULE_BYE_EXTRA, ("A", "B", "C"))]
    assert issues[0].explanation.en == "3 byes where a legal pairing needs 1"


def test_check_pairing_structural_errors():
    options, entrants = _levels({"A": 30, "B": 28, "C": 27})
    state = replay(options, entrants, [])
    with pytest.raises(EngineError, match=r"^boards\[1\]\.black: 'Z' is not a registered player$"):
        check_pairing(state, [("A", "B"), ("C", "Z")])
    with pytest.raises(EngineError, match=r'^byes\[0\]: "A" is already in this round \(boards\[0\]\.white\)$'):
        check_pairing(state, [("A", "B")], ["A"])
    with pytest.raises(EngineError, match=r'^boards\[0\]\.black: "A" cannot play themselves$'):
        check_pairing(state, [("A", "A")])


def test_a_hand_pairing_above_nine_stones_is_played_on_nine():
    """Only the director pairs against a rule, by hand (`rules/go.md`, "Pairing"); the game is played, at the most
    the rules allow: 9 stones and reverse komi on half stones (gap 18), 9 stones and no komi on one stone (gap 9)."""
    options, entrants = _levels({"A": 42, "B": 20})  # gap 22 would need 11 stones
    state = replay(options, entrants, [])
    board = board_for(state, "A", "B", seed=1, number=1)
    assert (board.white, board.black, board.handicap, board.komi_kind) == ("A", "B", 9, KOMI_REVERSE)
    issues = check_pairing(state, [board])
    assert [i.rule for i in issues] == [RULE_HANDICAP_LIMIT]
    assert issues[0].explanation.en == "A - B: level gap 22 needs 11 stones, more than 9; played on 9 stones"
    # Its result is replayed like any other game: the levels move, the game keeps its 9 stones.
    after = replay(options, entrants, [[GameResult("A", "B", "B", board.handicap, board.komi_kind)]])
    assert (after.player("B").level, after.player("B").history[0].handicap) == (21, 9)

    options, entrants = _levels({"A": 25, "B": 10}, half_stone=False)
    board = board_for(replay(options, entrants, []), "A", "B", seed=1)
    assert (board.handicap, board.komi_kind) == (9, KOMI_NONE)


def test_the_replay_never_gives_more_than_nine_stones():
    """A game recorded without stones takes them from the levels, at most 9 (a hand pairing's game)."""
    options, entrants = _levels({"A": 42, "B": 20})
    state = replay(options, entrants, [[GameResult("A", "B", "A")]])
    assert (state.player("A").history[0].handicap, state.player("A").history[0].komi) == (9, KOMI_REVERSE)
