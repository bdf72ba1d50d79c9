"""Golden tests of the replay and the standings (`rules/go.md`, part 1): levels, streaks, byes, draws, absences,
the errors that name the round and the board, and the tie-break, with the worked examples' numbers written out."""

from __future__ import annotations

import pytest

from ratings.engines.common import EngineError
from tests.tournaments.pairing.examples import five_round_fus
from tournaments.pairing import (
    KOMI_NONE,
    KOMI_NORMAL,
    KOMI_REVERSE,
    ByeResult,
    Entrant,
    GameResult,
    Options,
    pair_round,
    replay,
    standings,
    tiebreak_terms,
)


def _eight_kyu_tournament() -> tuple[Options, list[Entrant], list[list[GameResult | ByeResult]]]:
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
        [GameResult("a", "b", "a"), ByeResult("c")],
        [ByeResult("a"), GameResult("b", "c", "b")],
        [GameResult("a", "c", "a"), ByeResult("b")],
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
    games = [[GameResult("ann", "bob", "ann"), ByeResult("carl")], [GameResult("ann", "bob", "carl")]]
    with pytest.raises(EngineError) as info:
        replay(options, entrants, games)
    assert str(info.value) == 'games[1][0].winner: "carl" is neither white nor black'
    assert info.value.field == "games[1][0].winner"


def test_errors_name_the_round_and_the_board():
    options, entrants = _abc()
    entrants += [Entrant("dan", 1700), Entrant("eve", 1600)]
    round_2 = [ByeResult("eve"), GameResult("ann", "carl", "ann"), ByeResult("dan"), GameResult("bob", "dan", "bob")]
    with pytest.raises(EngineError) as info:
        replay(options, entrants, [[], round_2])
    assert str(info.value) == 'games[1][3].black: "dan" already has a bye in round 2 (games[1][2])'
    round_2 = [ByeResult("bob"), GameResult("ann", "carl", "ann"), GameResult("dan", "eve", "dan")]
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
        replay(options, entrants, [[GameResult("ann", "bob", "ann"), ByeResult("ann")]])
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
        replay(options, entrants, [[ByeResult("carl")]])


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


def test_whole_five_round_fus_tournament_levels():
    options, entrants, games = five_round_fus()
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
    options, entrants, games = five_round_fus()
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
    options, entrants, games = five_round_fus()
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
    options, entrants, games = five_round_fus()
    options = Options(rounds=5, half_stone=True, acceleration=True, tiebreak=False)
    table = standings(replay(options, entrants, games))
    assert [(s.place, s.player, s.tiebreak) for s in table][:4] == [
        (1, "ann", None),
        (2, "bob", None),  # 2050
        (3, "cid", None),  # 1990
        (4, "fay", None),  # 1700
    ]
