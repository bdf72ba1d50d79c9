"""Golden tests of the self-handicap engine: the worked examples of `rules/go.md`, part 1, numbers written out."""

from __future__ import annotations

import pytest

from ratings.engines.common import EngineError
from tournaments.pairing import (
    KOMI_NONE,
    KOMI_NORMAL,
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
    Board,
    Bye,
    Entrant,
    GameResult,
    Options,
    board_for,
    check_pairing,
    handicap_for,
    max_level_gap,
    pair_round,
    rate_document,
    replay,
    standings,
    start_level,
    tiebreak_terms,
    win_points,
)

# ---------------------------------------------------------------------------------------------------------------
# Start levels, win points, handicap
# ---------------------------------------------------------------------------------------------------------------


def test_start_levels_half_stone_example():
    assert {start_level(r, half_stone=True) for r in range(2100, 2150)} == {42}
    assert {start_level(r, half_stone=True) for r in range(2150, 2200)} == {43}
    assert start_level(1300, half_stone=True) == 26
    assert start_level(1700, half_stone=True) == 34


def test_start_levels_one_stone_and_below_zero():
    assert start_level(0, half_stone=False) == 0
    assert start_level(1600, half_stone=False) == 16
    assert start_level(2599, half_stone=False) == 25
    assert start_level(-150, half_stone=False) == 0
    assert start_level(-1, half_stone=True) == 0
    assert start_level(2149.9, half_stone=True) == 42


def test_acceleration_five_rounds_gives_nine():
    points = [win_points(k, k, 5, acceleration=True) for k in range(1, 6)]
    assert points == [1, 2, 3, 2, 1]
    assert sum(points) == 9


def test_acceleration_fourteen_rounds_gives_fifty_six():
    points = [win_points(k, k, 14, acceleration=True) for k in range(1, 15)]
    assert points == [1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1]
    assert sum(points) == 56


def test_without_acceleration_a_win_is_one():
    assert [win_points(k, k, 5, acceleration=False) for k in range(1, 6)] == [1, 1, 1, 1, 1]


def test_handicap_table_half_stone():
    assert handicap_for(0, half_stone=True) == (0, KOMI_NORMAL)
    assert handicap_for(1, half_stone=True) == (1, KOMI_NONE)
    assert handicap_for(2, half_stone=True) == (1, KOMI_REVERSE)
    assert handicap_for(3, half_stone=True) == (2, KOMI_NONE)
    assert handicap_for(4, half_stone=True) == (2, KOMI_REVERSE)
    assert handicap_for(-3, half_stone=True) == (2, KOMI_NONE)
    assert handicap_for(17, half_stone=True) == (9, KOMI_NONE)
    assert handicap_for(18, half_stone=True) == (9, KOMI_REVERSE)
    assert handicap_for(19, half_stone=True) == (10, KOMI_NONE)


def test_handicap_table_one_stone():
    assert handicap_for(0, half_stone=False) == (0, KOMI_NORMAL)
    assert handicap_for(1, half_stone=False) == (1, KOMI_NONE)
    assert handicap_for(2, half_stone=False) == (2, KOMI_NONE)
    assert handicap_for(3, half_stone=False) == (3, KOMI_NONE)
    assert handicap_for(4, half_stone=False) == (4, KOMI_NONE)
    assert handicap_for(9, half_stone=False) == (9, KOMI_NONE)


def test_nine_stones_as_level_gap():
    assert max_level_gap(half_stone=True) == 18
    assert max_level_gap(half_stone=False) == 9
    assert Options.fus(5).max_level_gap == 18


def test_options_are_checked():
    with pytest.raises(EngineError, match=r"^options.rounds: 0 is not"):
        Options(rounds=0)
    with pytest.raises(EngineError, match=r"^options.komi_none: "):
        Options(rounds=3, komi_none=-1)


# ---------------------------------------------------------------------------------------------------------------
# Replay: levels, streaks, byes, draws, absences
# ---------------------------------------------------------------------------------------------------------------


def _eight_kyu_tournament() -> tuple[Options, list[Entrant], list[list[GameResult | Bye]]]:
    """`rules/go.md`: an 8 kyu (26) wins rounds 1-4 of 5 and meets, before round 5, a 4 kyu (34) who lost four."""
    options = Options.fus(5)
    entrants = [
        Entrant("eight", 1300),
        Entrant("four", 1700),
        *(Entrant(f"s{k}", 2200 + 10 * k) for k in range(1, 5)),
        *(Entrant(f"w{k}", 1000 + 10 * k) for k in range(1, 5)),
    ]
    games = [
        [GameResult("eight", f"w{k}", "eight"), GameResult(f"s{k}", "four", f"s{k}")]
        + [GameResult(f"s{j}", f"w{j}", f"s{j}") for j in range(1, 5) if j != k]
        for k in range(1, 5)
    ]
    return options, entrants, games


def test_eight_kyu_example_reaches_34_and_plays_even_against_a_4_kyu():
    options, entrants, games = _eight_kyu_tournament()
    state = replay(options, entrants, games)
    eight = state.player("eight")
    assert eight.start_level == 26
    assert eight.levels_before == (26, 27, 29, 32)
    assert eight.level == 34
    assert eight.explanation.en == "level 34 = start 26 + wins 1 + 2 + 3 + 2 (start 26 = 1300 * 2 // 100)"
    assert eight.explanation.ru == "уровень 34 = старт 26 + победы 1 + 2 + 3 + 2 (старт 26 = 1300 * 2 // 100)"
    assert state.player("four").level == 34
    pairing = pair_round(state, seed=7)
    board = next(b for b in pairing.boards if {b.white, b.black} == {"eight", "four"})
    assert (board.handicap, board.komi_kind, board.komi) == (0, KOMI_NORMAL, 6.5)
    # Equal levels: eight had white four times, four never: eight takes black.
    assert (board.white, board.black, board.colour_reason) == ("four", "eight", "had white more often")


def test_winning_all_five_rounds_adds_nine():
    options, entrants, games = _eight_kyu_tournament()
    games.append([GameResult("eight", "four", "eight")])
    state = replay(options, entrants, games)
    assert state.player("eight").level == 26 + 9
    assert state.player("eight").streak == 5


def test_loss_leaves_level_and_ends_streak():
    options = Options.fus(5)
    entrants = [Entrant("a", 2000), Entrant("b", 2000), Entrant("c", 2000), Entrant("d", 2000)]
    games = [
        [GameResult("a", "b", "a"), GameResult("c", "d", "c")],
        [GameResult("a", "c", "c"), GameResult("b", "d", "b")],
        [GameResult("a", "d", "a"), GameResult("b", "c", "b")],
    ]
    state = replay(options, entrants, games)
    # a: win (+1), loss (+0), win with a new streak of 1 (+1).
    assert state.player("a").levels_before == (40, 41, 41)
    assert state.player("a").level == 42
    # c: win +1, win +2, loss.
    assert state.player("c").level == 43
    assert state.player("c").streak == 0


def test_bye_is_one_point_and_keeps_the_streak():
    options = Options.fus(5)
    entrants = [Entrant("a", 2000), Entrant("b", 2000), Entrant("c", 2000)]
    games = [
        [GameResult("a", "b", "a"), Bye("c")],
        [Bye("a"), GameResult("b", "c", "b")],
        [GameResult("a", "c", "a"), Bye("b")],
    ]
    state = replay(options, entrants, games)
    # a: win +1 (streak 1), bye +1 (streak stays 1), win +2 (streak 2, cap 3).
    assert state.player("a").level == 40 + 1 + 1 + 2
    assert state.player("a").streak == 2
    assert state.player("a").byes == 1
    assert state.player("a").explanation.en == "level 44 = start 40 + wins 1 + 2 + byes 1 (start 40 = 2000 * 2 // 100)"


def test_absence_ends_the_streak_and_late_entry_starts_with_start_points():
    options = Options.fus(5)
    entrants = [Entrant("a", 2000), Entrant("b", 2000), Entrant("c", 2000), Entrant("late", 1500, absent={1, 2})]
    games = [
        [GameResult("a", "b", "a")],
        [GameResult("b", "c", "b")],
        [GameResult("a", "late", "a"), GameResult("b", "c", "c")],
    ]
    state = replay(options, entrants, games)
    # a: win +1, absent (streak ends), win +1.
    assert state.player("a").level == 42
    assert [e.kind for e in state.player("a").history] == ["game", "absent", "game"]
    assert state.player("late").levels_before == (30, 30, 30)
    assert state.present(4) == ("a", "b", "c", "late")


def test_draws_when_allowed_keep_levels_and_end_both_streaks():
    options = Options.fus(5, draws_allowed=True)
    entrants = [Entrant("a", 2000), Entrant("b", 2000), Entrant("c", 2000), Entrant("d", 2000)]
    games = [
        [GameResult("a", "b", "a"), GameResult("c", "d", "d")],
        [GameResult("a", "d", None)],
        [GameResult("a", "c", "a")],
    ]
    state = replay(options, entrants, games)
    assert state.player("a").levels_before == (40, 41, 41)
    assert state.player("a").level == 42  # the draw ended the streak: +1, not +2
    assert state.player("d").level == 41
    assert state.player("d").streak == 0


# ---------------------------------------------------------------------------------------------------------------
# Replay validation
# ---------------------------------------------------------------------------------------------------------------


def _abc(options: Options | None = None) -> tuple[Options, list[Entrant]]:
    return options or Options.fus(5), [Entrant("ann", 2000), Entrant("bob", 1900), Entrant("carl", 1800)]


def test_winner_must_be_white_or_black():
    options, entrants = _abc()
    games = [[GameResult("ann", "bob", "ann"), Bye("carl")], [GameResult("ann", "bob", "carl")]]
    with pytest.raises(EngineError) as info:
        replay(options, entrants, games)
    assert str(info.value) == 'games[1][0].winner: "carl" is neither white nor black'
    assert info.value.field == "games[1][0].winner"


def test_errors_name_the_round_and_the_board():
    options, entrants = _abc()
    entrants += [Entrant("dan", 1700), Entrant("eve", 1600)]
    round_2 = [Bye("eve"), GameResult("ann", "carl", "ann"), Bye("dan"), GameResult("bob", "dan", "bob")]
    with pytest.raises(EngineError) as info:
        replay(options, entrants, [[], round_2])
    assert str(info.value) == 'games[1][3].black: "dan" already has a bye in round 2 (games[1][2])'
    round_2 = [Bye("bob"), GameResult("ann", "carl", "ann"), GameResult("dan", "eve", "dan")]
    round_2.append(GameResult("eve", "bob", "eve"))
    with pytest.raises(EngineError) as info:
        replay(options, entrants, [[], round_2])
    assert str(info.value) == 'games[1][3].white: "eve" already plays in round 2 (games[1][2])'


def test_player_paired_twice_in_a_round():
    options, entrants = _abc()
    with pytest.raises(EngineError) as info:
        replay(options, entrants, [[GameResult("ann", "bob", "ann"), GameResult("carl", "bob", "bob")]])
    assert str(info.value) == 'games[0][1].black: "bob" already plays in round 1 (games[0][0])'


def test_draw_where_draws_are_forbidden():
    options, entrants = _abc()
    with pytest.raises(EngineError) as info:
        replay(options, entrants, [[GameResult("ann", "bob", None)]])
    assert str(info.value) == "games[0][0].winner: a draw, but this tournament does not allow draws"


def test_bye_for_a_player_who_also_plays():
    options, entrants = _abc()
    with pytest.raises(EngineError) as info:
        replay(options, entrants, [[GameResult("ann", "bob", "ann"), Bye("ann")]])
    assert str(info.value) == 'games[0][1].bye: "ann" already plays in round 1 (games[0][0])'


def test_unknown_player_and_self_play_and_absent_player():
    options, entrants = _abc()
    with pytest.raises(EngineError) as info:
        replay(options, entrants, [[GameResult("ann", "zed", "ann")]])
    assert str(info.value) == "games[0][0].black: 'zed' is not a registered player"
    with pytest.raises(EngineError, match=r'^games\[0\]\[0\]\.black: "ann" cannot play themselves$'):
        replay(options, entrants, [[GameResult("ann", "ann", "ann")]])
    entrants[2] = Entrant("carl", 1800, absent=frozenset({1}))
    with pytest.raises(EngineError, match=r'^games\[0\]\[0\]\.bye: "carl" is marked absent in round 1$'):
        replay(options, entrants, [[Bye("carl")]])


def test_player_registered_twice():
    options, entrants = _abc()
    entrants.append(Entrant("bob", 1000))
    with pytest.raises(EngineError) as info:
        replay(options, entrants, [])
    assert str(info.value) == 'players[3].id: "bob" is registered twice (players[1])'


def test_more_rounds_of_results_than_rounds():
    options, entrants = _abc(Options.fus(1))
    with pytest.raises(EngineError, match=r"^games: 2 rounds of results, but the tournament has 1 rounds$"):
        replay(options, entrants, [[], []])


# ---------------------------------------------------------------------------------------------------------------
# Tie-break and standings
# ---------------------------------------------------------------------------------------------------------------


def test_tiebreak_example_a_plus_three_b_minus_three():
    """A (33) gives B (30) 2 stones without komi; B then climbs to A's level: A +3, B -3 from that game."""
    options = Options.fus(3)
    entrants = [Entrant("A", 1650), Entrant("B", 1500), Entrant("C", 1400), Entrant("D", 1800)]
    games = [
        [GameResult("A", "B", "B"), GameResult("D", "C", "D")],
        [GameResult("D", "A", "D"), GameResult("B", "C", "B")],
    ]
    state = replay(options, entrants, games)
    assert state.player("A").levels_before == (33, 33)
    assert state.player("B").levels_before == (30, 31)
    assert state.player("A").level == state.player("B").level == 33
    term_a = tiebreak_terms(state, "A")[0]
    term_b = tiebreak_terms(state, "B")[0]
    assert (term_a.opponent, term_a.value) == ("B", 3)
    assert (term_b.opponent, term_b.value) == ("A", -3)
    first = state.player("A").history[0]
    assert (first.colour, first.handicap, first.komi) == ("white", 2, KOMI_NONE)


def _five_round_fus() -> tuple[Options, list[Entrant], list[list[GameResult | Bye]]]:
    options = Options.fus(5)
    entrants = [
        Entrant("ann", 2100),  # 42
        Entrant("bob", 2050),  # 41
        Entrant("cid", 1990),  # 39
        Entrant("dan", 1900),  # 38
        Entrant("eve", 1810),  # 36
        Entrant("fay", 1700),  # 34
    ]
    games = [
        [GameResult("ann", "bob", "bob"), GameResult("cid", "dan", "cid"), GameResult("eve", "fay", "fay")],
        [GameResult("bob", "cid", "cid"), GameResult("ann", "eve", "ann"), GameResult("dan", "fay", "fay")],
        [GameResult("ann", "cid", "ann"), GameResult("bob", "fay", "fay"), GameResult("dan", "eve", "eve")],
        [GameResult("ann", "fay", "fay"), GameResult("bob", "dan", "dan"), GameResult("cid", "eve", "cid")],
        [GameResult("ann", "dan", "dan"), GameResult("bob", "eve", "bob"), GameResult("cid", "fay", "fay")],
    ]
    return options, entrants, games


def test_whole_five_round_fus_tournament_levels():
    options, entrants, games = _five_round_fus()
    state = replay(options, entrants, games)
    # Hand-computed; a win gives min(streak, 6 - round): caps 5, 4, 3, 2, 1.
    expected = {
        "ann": ((42, 42, 43, 45, 45), 45),  # L, W+1, W+2, L, L
        "bob": ((41, 42, 42, 42, 42), 43),  # W+1, L, L, L, W+1
        "cid": ((39, 40, 42, 42, 43), 43),  # W+1, W+2, L, W+1, L
        "dan": ((38, 38, 38, 38, 39), 40),  # L, L, L, W+1, W+1 (streak 2, cap 1)
        "eve": ((36, 36, 36, 37, 37), 37),  # L, L, W+1, L, L
        "fay": ((34, 35, 37, 40, 42), 43),  # W+1, W+2, W+3, W+2 (cap), W+1 (cap)
    }
    for pid, (before, final) in expected.items():
        assert state.player(pid).levels_before == before, pid
        assert state.player(pid).level == final, pid
    assert state.player("fay").explanation.en == (
        "level 43 = start 34 + wins 1 + 2 + 3 + 2 + 1 (start 34 = 1700 * 2 // 100)"
    )


def test_whole_five_round_fus_tournament_standings():
    options, entrants, games = _five_round_fus()
    table = standings(replay(options, entrants, games))
    # Tie-breaks by hand, e.g. bob: (45-43)-(42-41) + (43-43)-(40-42) + (43-43)-(37-42) + (40-43)-(38-42)
    # + (37-43)-(37-42) = 1 + 2 + 5 + 1 - 1 = 8.
    assert [(s.place, s.player, s.level, s.tiebreak) for s in table] == [
        (1, "ann", 45, 0),
        (2, "bob", 43, 8),
        (3, "cid", 43, -3),
        (4, "fay", 43, -23),
        (5, "dan", 40, 5),
        (6, "eve", 37, 13),
    ]
    assert sum(s.tiebreak for s in table) == 0
    bob = next(s for s in table if s.player == "bob")
    assert "tie-break +8 = [round 1 vs ann: (45 - 43) - (42 - 41) = +1] + [round 2 vs cid" in bob.explanation.en
    assert "коэффициент +8 = [тур 1, ann: (45 - 43) - (42 - 41) = +1]" in bob.explanation.ru


def test_fifth_round_of_the_whole_tournament_is_forced_and_matches_the_hand_pairing():
    options, entrants, games = _five_round_fus()
    state = replay(options, entrants, games[:4])
    pairing = pair_round(state, seed=1)
    assert [(b.white, b.black, b.handicap, b.komi_kind) for b in pairing.boards] == [
        ("ann", "dan", 3, KOMI_REVERSE),  # 45 - 39 = 6
        ("cid", "fay", 1, KOMI_NONE),  # 43 - 42 = 1
        ("bob", "eve", 3, KOMI_NONE),  # 42 - 37 = 5
    ]
    assert pairing.byes == ()
    assert pairing.issues == ()


def test_shared_place_after_start_rating():
    options = Options.fus(3)
    entrants = [Entrant("x", 2000), Entrant("y", 2000), Entrant("z", 2010), Entrant("w", 1000)]
    table = standings(replay(options, entrants, []))
    assert [(s.place, s.player, s.shared) for s in table] == [
        (1, "z", False),
        (2, "x", True),
        (2, "y", True),
        (4, "w", False),
    ]


def test_tiebreak_off_keeps_start_rating_and_shows_none():
    options, entrants, games = _five_round_fus()
    options = Options(rounds=5, half_stone=True, acceleration=True, tiebreak=False)
    table = standings(replay(options, entrants, games))
    assert [(s.place, s.player, s.tiebreak) for s in table][:4] == [
        (1, "ann", None),
        (2, "bob", None),  # 2050
        (3, "cid", None),  # 1990
        (4, "fay", None),  # 1700
    ]


# ---------------------------------------------------------------------------------------------------------------
# Pairing
# ---------------------------------------------------------------------------------------------------------------


def _levels(levels: dict[str, int], *, half_stone: bool = True, rounds: int = 9, draws: bool = True) -> tuple:
    """Entrants whose start level is given (ratings are chosen to hit it exactly)."""
    options = Options(rounds=rounds, half_stone=half_stone, acceleration=True, draws_allowed=draws)
    factor = 50 if half_stone else 100
    return options, [Entrant(pid, level * factor) for pid, level in levels.items()]


def _met(pairs: list[tuple[str, str]]) -> list[list[GameResult | Bye]]:
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
    state = replay(options, entrants, [[Bye("E")]])
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
    state = replay(options, entrants, [[Bye("C")]])
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
    options, entrants, games = _five_round_fus()
    with pytest.raises(EngineError, match=r"^round: all 5 rounds have been played$"):
        pair_round(replay(options, entrants, games))


# ---------------------------------------------------------------------------------------------------------------
# A director's manual pairing
# ---------------------------------------------------------------------------------------------------------------


def test_check_pairing_accepts_the_engine_pairing():
    options, entrants, games = _five_round_fus()
    state = replay(options, entrants, games[:3])
    pairing = pair_round(state, seed=3)
    assert check_pairing(state, pairing.boards, pairing.byes) == ()


def test_check_pairing_reports_each_broken_rule():
    options, entrants = _levels({"A": 40, "B": 39, "C": 20, "D": 19, "E": 18, "F": 10})
    state = replay(options, entrants, [*_met([("A", "B")]), [Bye("D")]])
    assert state.player("D").level == 20
    manual = [
        ("A", "B"),  # rematch
        ("E", "D"),  # D (20) ranks above E (18): D should be white
        board_for(state, "C", "F", seed=1),  # 20 - 10 fine
    ]
    wrong = Board(4, "C", "F", 20, 10, 4, KOMI_NONE, 0.5)
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
    wrong = Board(1, "A", "B", 30, 28, 2, KOMI_NONE, 0.5)
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


# ---------------------------------------------------------------------------------------------------------------
# manage.py rate
# ---------------------------------------------------------------------------------------------------------------


def test_rate_document_contract_example():
    doc = {
        "system": "selfhandicap",
        "options": {"half_stone": True, "acceleration": True},
        "rounds": 5,
        "players": [{"id": "ann", "rating": 1300}, {"id": "bob", "rating": 1700}, {"id": "cid", "rating": 1000}],
        "games": [[{"white": "bob", "black": "ann", "winner": "ann"}, {"bye": "cid"}]],
        "pair_next": True,
        "seed": 5,
    }
    out = rate_document(doc)
    assert [(s["place"], s["player"], s["level"], s["tiebreak"]) for s in out["standings"]] == [
        (1, "bob", 34, 1),  # (27 - 34) - (26 - 34) = +1
        (2, "ann", 27, -1),
        (3, "cid", 21, 0),
    ]
    # ann and bob have met; cid had the bye: bob gives cid 34 - 21 = 13 levels = 7 stones, ann sits out.
    assert out["next_round"] == [
        {
            "board": 1,
            "white": "bob",
            "black": "cid",
            "handicap": 7,
            "komi": "none",
            "komi_points": 0.5,
            "white_level": 34,
            "black_level": 21,
            "colour_reason": "lower level",
        },
        {"bye": "ann"},
    ]
    assert (out["round"], out["seed"], out["issues"]) == (2, 5, [])
    assert out["standings"][1]["explanation"]["en"].startswith("level 27 = start 26 + wins 1")


def test_rate_document_without_pair_next_and_with_options():
    _, entrants, games = _five_round_fus()
    doc = {
        "options": {
            "half_stone": True,
            "acceleration": True,
            "draws": False,
            "tiebreak": True,
            "komi": {"normal": 7.5},
        },
        "rounds": 5,
        "players": [{"id": e.id, "rating": e.rating} for e in entrants],
        "games": [[{"white": g.white, "black": g.black, "winner": g.winner} for g in r] for r in games],
    }
    out = rate_document(doc)
    assert "next_round" not in out
    assert [(s["player"], s["level"], s["tiebreak"]) for s in out["standings"]] == [
        ("ann", 45, 0),
        ("bob", 43, 8),
        ("cid", 43, -3),
        ("fay", 43, -23),
        ("dan", 40, 5),
        ("eve", 37, 13),
    ]


def test_rate_document_draws_and_absences():
    doc = {
        "options": {"draws": True},
        "rounds": 3,
        "players": [
            {"id": "a", "rating": 2000},
            {"id": "b", "rating": 2000},
            {"id": "c", "rating": 1000, "absent": [2]},
        ],
        "games": [[{"white": "a", "black": "b", "winner": None}, {"bye": "c"}]],
        "pair_next": True,
    }
    out = rate_document(doc)
    assert [(s["player"], s["level"]) for s in out["standings"]] == [("a", 20), ("b", 20), ("c", 11)]
    # a and b have met; c is absent in round 2: nobody can play.
    assert out["next_round"] == [{"bye": "a"}, {"bye": "b"}]
    assert [i["rule"] for i in out["issues"]] == [RULE_FIELD_UNPAIRABLE]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "document: is not a JSON object"),
        ({"system": "dirs", "rounds": 3}, "system: 'dirs' is not \"selfhandicap\""),
        ({"players": []}, "rounds: missing (the number of rounds of the tournament)"),
        ({"rounds": 0}, "rounds: 0 is not a whole number of rounds of at least 1"),
        ({"rounds": 3, "colour": 1}, "colour: unknown key (expected one of"),
        ({"rounds": 3, "options": {"halfstone": True}}, "options.halfstone: unknown key"),
        ({"rounds": 3, "options": {"half_stone": 1}}, "options.half_stone: 1 is not true or false"),
        ({"rounds": 3, "options": {"komi": {"normal": "7"}}}, "options.komi.normal: '7' is not a number"),
        ({"rounds": 3, "players": [{"id": "a"}]}, "players[0].rating: missing"),
        ({"rounds": 3, "players": [{"id": "a", "rating": True}]}, "players[0].rating: True is not a number"),
        ({"rounds": 3, "players": [{"id": "", "rating": 1}]}, "players[0].id: '' is not a non-empty string"),
        (
            {"rounds": 3, "players": [{"id": "a", "rating": 1}, {"id": "a", "rating": 2}]},
            'players[1].id: "a" is registered twice (players[0])',
        ),
        ({"rounds": 3, "players": [{"id": "a", "rating": 1, "absent": [4]}]}, "players[0].absent: 4 is not a round"),
        ({"rounds": 3, "games": {}}, "games: is not a list of rounds"),
        ({"rounds": 3, "games": [[{"white": "a", "black": "b"}]]}, "games[0][0].winner: missing (a player id"),
        (
            {
                "rounds": 3,
                "players": [{"id": "a", "rating": 1}, {"id": "b", "rating": 1}, {"id": "carl", "rating": 1}],
                "games": [[], [{"bye": "carl"}, {"white": "a", "black": "b", "winner": "carl"}]],
            },
            'games[1][1].winner: "carl" is neither white nor black',
        ),
        (
            {
                "rounds": 1,
                "players": [{"id": "a", "rating": 1}, {"id": "b", "rating": 1}],
                "games": [[{"white": "a", "black": "b", "winner": "a"}]],
                "pair_next": True,
            },
            "pair_next: all 1 rounds have been played",
        ),
        ({"rounds": 3, "pair_next": "yes"}, "pair_next: 'yes' is not true or false"),
        ({"rounds": 3, "seed": 1.5}, "seed: 1.5 is not a whole number"),
        (
            {
                "rounds": 3,
                "players": [{"id": "a", "rating": 1}, {"id": "b", "rating": 1}],
                "games": [[{"white": "a", "black": "b", "winner": "a", "handicap": 12}]],
            },
            "games[0][0].handicap: 12 is not a number of stones 0..9",
        ),
    ],
)
def test_rate_document_bad_input(doc, message):
    with pytest.raises(EngineError) as info:
        rate_document(doc)
    assert str(info.value).startswith(message)
