"""Correcting or clearing a board's result: levels, streaks and the stored standings follow; in any round, the later
rounds recomputed and the director told which games now differ from what was played; the club rating of a DIRS
tournament follows too."""

import pytest

from ratings.dirs import services as dirs_services
from ratings.dirs.models import DirsGame, DirsRating
from tests.factories import PlayerFactory, UserFactory, organiser
from tournaments.go import services
from tournaments.go.models import Board, Round

from .helpers import EN, approve, boards, create, edit, pair, register, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    client.force_login(organiser())
    return client


def correct(client, go, number, board, value, **extra):
    return client.post(
        f"{EN}/{go.pk}/rounds/{number}/correct/", {"board": board, "result": value, **extra}, follow=True
    )


def table(rnd) -> list[tuple]:
    """(place, name, level, tie-break, streak) of a round's stored standings."""
    rows = rnd.standings.select_related("registration").order_by("place")
    return [(s.place, s.registration.name, s.level, s.tiebreak, s.streak) for s in rows]


def _four(client):
    """FUS, 5 rounds, half-stone step, acceleration: start levels A 40, B 39, C 38, D 37 (rating * 2 // 100)."""
    go = create(client, name="Correction Cup")
    for name, rating in (("A", 2000), ("B", 1950), ("C", 1900), ("D", 1850)):
        register(client, go, name, rating)
    rnd = pair(client, go)
    edit(client, go, 1, action="publish")
    return go, rnd


def test_correct_and_clear_a_result_recomputes_levels_and_tiebreaks(director):
    go, rnd = _four(director)
    assert [(b.white.name, b.black.name) for b in rnd.boards.select_related("white", "black")] == [
        ("A", "B"),
        ("C", "D"),
    ]
    result(director, go, 1, 1, "white")
    result(director, go, 1, 2, "white")
    # A 40 + 1 = 41; C 38 + 1 = 39 ties B 39.
    # B's tie-break (41 - 39) - (40 - 39) = +1 beats C's (37 - 39) - (37 - 38) = -1.
    assert table(Round.objects.get(pk=rnd.pk)) == [
        (1, "A", 41, -1, 1),
        (2, "B", 39, 1, 0),
        (3, "C", 39, -1, 1),
        (4, "D", 37, 1, 0),
    ]
    version = Board.objects.get(round=rnd, number=1).version
    response = correct(director, go, 1, 1, "black", version=version)
    assert "Board 1 corrected: black wins." in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.completed
    # B wins instead: A 40 and B 40; A's term (40 - 40) - (39 - 40) = +1, B's (40 - 40) - (40 - 39) = -1.
    assert table(rnd) == [(1, "A", 40, 1, 0), (2, "B", 40, -1, 1), (3, "C", 39, -1, 1), (4, "D", 37, 1, 0)]
    assert rnd.overrides[-1]["action"] == "correct"
    assert rnd.overrides[-1]["en"] == "board 1 (A - B): white wins → black wins"

    response = correct(director, go, 1, 2, "")
    assert "Board 2: the result is cleared." in response.content.decode()
    rnd.refresh_from_db()
    assert not rnd.completed
    assert rnd.standings.count() == 0
    board = Board.objects.get(round=rnd, number=2)
    assert (board.result, board.entered_at) == ("", None)
    assert "No round is finished yet." in director.get(f"{EN}/{go.pk}/standings/").content.decode()
    assert director.post(f"{EN}/{go.pk}/pair/", follow=True).status_code == 200
    assert go.rounds.count() == 1  # not paired: round 1 has a game without a result again

    result(director, go, 1, 2, "black")
    rnd.refresh_from_db()
    # D wins: C 38, D 38; C's term (38 - 38) - (37 - 38) = +1, D's (38 - 38) - (38 - 37) = -1.
    assert table(rnd) == [(1, "A", 40, 1, 0), (2, "B", 40, -1, 1), (3, "C", 38, 1, 0), (4, "D", 38, -1, 1)]
    page = director.get(f"{EN}/{go.pk}/standings/").content.decode()
    assert "No round is finished yet." not in page


def test_a_correction_in_round_two_changes_streaks_and_keeps_round_one(director):
    go, rnd1 = _four(director)
    result(director, go, 1, 1, "black")  # B beats A
    result(director, go, 1, 2, "black")  # D beats C
    round_one = table(Round.objects.get(pk=rnd1.pk))
    assert round_one == [(1, "A", 40, 1, 0), (2, "B", 40, -1, 1), (3, "C", 38, 1, 0), (4, "D", 38, -1, 1)]
    rnd2 = pair(director, go)
    edit(director, go, 2, action="publish")
    assert [
        (b.white.name, b.black.name, b.white_level, b.black_level) for b in rnd2.boards.select_related("white", "black")
    ] == [("A", "C", 40, 38), ("B", "D", 40, 38)]
    result(director, go, 2, 1, "white")
    result(director, go, 2, 2, "white")
    # A wins 1 (streak 1), B wins 2 (streak 2; the cap is rounds left 3 + 1 = 4): A 41, B 42.
    # B: (41 - 42) - (40 - 39) = -2 and (38 - 42) - (38 - 40) = -2: -4.  A: (42 - 41) - (39 - 40) = 2 and
    # (38 - 41) - (38 - 40) = -1: 1.  C: (38 - 38) - (37 - 38) = +1 and (41 - 38) - (40 - 38) = +1: 2.
    # D: (38 - 38) - (38 - 37) = -1 and (42 - 38) - (40 - 38) = +2: 1.
    assert table(Round.objects.get(pk=rnd2.pk)) == [
        (1, "B", 42, -4, 2),
        (2, "A", 41, 1, 1),
        (3, "C", 38, 2, 0),
        (4, "D", 38, 1, 0),
    ]
    correct(director, go, 2, 2, "black")
    rnd2.refresh_from_db()
    # D beats B instead: B stays 40 (streak broken), D climbs 2 (streak 2): 40. A 41 as before.
    # B: (41 - 40) - (40 - 39) = 0 and (40 - 40) - (38 - 40) = +2: 2.  D: (38 - 40) - (38 - 37) = -3 and
    # (40 - 40) - (40 - 38) = -2: -5.  A: (40 - 41) - (39 - 40) = 0 and (38 - 41) - (38 - 40) = -1: -1.
    # C: (40 - 38) - (37 - 38) = 3 and (41 - 38) - (40 - 38) = 1: 4.
    assert table(rnd2) == [(1, "A", 41, -1, 1), (2, "B", 40, 2, 0), (3, "D", 40, -5, 2), (4, "C", 38, 4, 0)]
    assert table(Round.objects.get(pk=rnd1.pk)) == round_one
    page = director.get(f"{EN}/{go.pk}/standings/").content.decode()
    assert page.index(">A<") < page.index(">B<") < page.index(">D<") < page.index(">C<")


def test_an_earlier_round_is_corrected_after_later_rounds_were_played(director):
    """Issue 27: a result of round 1 corrected after round 2 was played and round 3 paired. PROFS (one stone a
    level, a win is 1): A 2000 (20), B 1900 (19), C 1800 (18), D 1700 (17).

    Round 1: A beats B, C beats D: A 21, B 19, C 19, D 17. Round 2 (paired on those): A - C on 2 stones, B - D on 2;
    A and B win: A 22, B 20, C 19, D 17. Round 3 is a draft: A - D (5 stones), B - C (1).
    The correction: B beat A in round 1. Round 1 gives A 20, B 20, C 19, D 17; round 2's games were played on
    stones the corrected levels do not give (A - C: 1 stone, not 2; B - D: 3, not 2), and the director is told
    each; round 2's standings are A 21, B 21, C 19, D 17; the draft's stones follow (A - D 4, B - C 2)."""
    go = create(director, name="Late fix", system="profs", rounds=3, half_stone=None, acceleration=None)
    for name, rating in (("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)):
        register(director, go, name, rating)
    rnd1 = pair(director, go)
    edit(director, go, 1, action="publish")
    result(director, go, 1, 1, "white")
    result(director, go, 1, 2, "white")
    rnd2 = pair(director, go)
    assert boards(rnd2) == [("A", "C", 2, "none"), ("B", "D", 2, "none")]
    edit(director, go, 2, action="publish")
    result(director, go, 2, 1, "white")
    result(director, go, 2, 2, "white")
    assert [row[1:3] for row in table(Round.objects.get(pk=rnd2.pk))] == [("A", 22), ("B", 20), ("C", 19), ("D", 17)]
    rnd3 = pair(director, go)
    assert boards(rnd3) == [("A", "D", 5, "none"), ("B", "C", 1, "none")]

    response = correct(director, go, 1, 1, "black")
    text = response.content.decode()
    assert "Board 1 corrected: black wins." in text
    assert (
        "Now differs from what was played: round 2, board 1 (A - C): played on 2 stones, no komi; the corrected "
        "levels (20, 19) give 1 stone, no komi." in text
    )
    assert (
        "Now differs from what was played: round 2, board 2 (B - D): played on 2 stones, no komi; the corrected "
        "levels (20, 17) give 3 stones, no komi." in text
    )
    assert "Round 3 (a draft) was paired on the levels before the correction: re-pair it." in text
    # A's term (20 - 20) - (19 - 20) = +1, B's -1; C's (17 - 19) - (17 - 18) = -1, D's +1.
    assert table(Round.objects.get(pk=rnd1.pk)) == [
        (1, "A", 20, 1, 0),
        (2, "B", 20, -1, 1),
        (3, "C", 19, -1, 1),
        (4, "D", 17, 1, 0),
    ]
    # Round 2: the games as played, the levels before it as corrected, its standings computed again.
    played = [(b.white.name, b.black.name, b.handicap, b.white_level, b.black_level, b.result) for b in _boards(rnd2)]
    assert played == [("A", "C", 2, 20, 19, "white"), ("B", "D", 2, 20, 17, "white")]
    assert {row[1]: row[2] for row in table(Round.objects.get(pk=rnd2.pk))} == {"A": 21, "B": 21, "C": 19, "D": 17}
    # The draft: not played yet, so its stones follow the corrected levels (A 21 - D 17: 4; B 21 - C 19: 2).
    assert boards(rnd3) == [("A", "D", 4, "none"), ("B", "C", 2, "none")]
    # Round 2's page tells the director, in the rules its pairing breaks; the public sees none of it.
    page = director.get(f"{EN}/{go.pk}/rounds/2/").content.decode()
    issues = page.split('id="issues"', 1)[1].split("</div>", 1)[0]
    assert "board 1 (A - C): played on 2 stones, no komi; the corrected levels (20, 19) give 1 stone, no komi" in issues
    log = director.get(f"{EN}/{go.pk}/log/").content.decode()
    assert "round 2, board 2 (B - D): played on 2 stones, no komi" in log
    assert "round 3 (a draft) was paired on the levels before the correction" in log
    # Corrected back: nothing differs any more, and round 2's page says nothing.
    correct(director, go, 1, 1, "white")
    assert 'id="issues"' not in director.get(f"{EN}/{go.pk}/rounds/2/").content.decode()
    assert {row[1]: row[2] for row in table(Round.objects.get(pk=rnd2.pk))} == {"A": 22, "B": 20, "C": 19, "D": 17}
    # A result of an earlier round can be corrected, not cleared: the later standings need it.
    response = correct(director, go, 1, 2, "")
    assert "Round 2 has been paired on this round&#x27;s results" in response.content.decode()
    assert Board.objects.get(round=rnd1, number=2).result == "white"


def _boards(rnd):
    return list(Board.objects.filter(round=rnd).select_related("white", "black").order_by("number"))


def test_bad_corrections_are_refused_and_change_nothing(director):
    go = create(director, name="Strict", rounds=2)
    for name, rating in (("A", 2000), ("B", 1950), ("C", 1900), ("D", 1850)):
        register(director, go, name, rating)
    rnd = pair(director, go)
    with pytest.raises(services.GoError, match="not published yet"):
        services.go_result_correct(go_round=rnd, board_number=1, result="black")
    edit(director, go, 1, action="publish")
    assert "has no result yet: enter it instead" in correct(director, go, 1, 1, "black").content.decode()
    result(director, go, 1, 1, "white")
    board = Board.objects.get(round=rnd, number=1)
    assert "Board 9 is not in round 1." in correct(director, go, 1, 9, "black").content.decode()
    assert "already has this result" in correct(director, go, 1, 1, "white").content.decode()
    assert "does not allow draws" in correct(director, go, 1, 1, "draw").content.decode()
    assert "reload the page" in correct(director, go, 1, 1, "black", version=board.version - 1).content.decode()
    assert "Result:" in correct(director, go, 1, 1, "nonsense").content.decode()
    board.refresh_from_db()
    assert (board.result, board.version) == ("white", 1)
    rnd.refresh_from_db()
    assert [o["action"] for o in rnd.overrides] == []
    client = director
    client.force_login(UserFactory())
    assert correct(client, go, 1, 1, "black").status_code == 404  # a draft is its director's alone
    assert Board.objects.get(pk=board.pk).result == "white"


def test_draws_can_be_corrected_where_allowed(director):
    go = create(director, name="Draws", rounds=2, draws_allowed="on")
    register(director, go, "A", 2000)
    register(director, go, "B", 1900)
    rnd = pair(director, go)
    edit(director, go, 1, action="publish")
    result(director, go, 1, 1, "draw")
    assert table(Round.objects.get(pk=rnd.pk)) == [(1, "A", 40, 0, 0), (2, "B", 38, 0, 0)]
    correct(director, go, 1, 1, "black_forfeit")
    rnd.refresh_from_db()
    # B (black) wins by forfeit: 38 + 1 = 39; A's term (39 - 40) - (38 - 40) = +1, B's (40 - 39) - (40 - 38) = -1.
    assert table(rnd) == [(1, "A", 40, 1, 0), (2, "B", 39, -1, 1)]


def test_round_page_offers_corrections_to_the_director_only(director, client):
    go, _round = _four(director)
    result(director, go, 1, 1, "white")
    page = director.get(f"{EN}/{go.pk}/rounds/1/").content.decode()
    assert page.count("/rounds/1/correct/") == 1  # board 1 has a result, board 2 takes one
    assert "clear the result" in page
    assert 'id="correct-locked"' not in page
    correct(director, go, 1, 1, "black")
    page = director.get(f"{EN}/{go.pk}/rounds/1/").content.decode()
    assert "board 1 (A - B): white wins → black wins" in page
    approve(go)  # the public sees an approved tournament
    director.logout()
    page = client.get(f"{EN}/{go.pk}/rounds/1/").content.decode()
    assert "/rounds/1/correct/" not in page
    assert "black wins" in page


def test_a_dirs_tournament_correction_takes_the_club_game_back(director):
    players = []
    for rank in ("10k", "10k"):  # DIRS 110 each
        p = PlayerFactory()
        dirs_services.dirs_rating_set_initial(player=p, rank=rank)
        players.append(p)
    DirsRating.objects.filter(player=players[0]).update(acceleration=3)
    go = create(director, name="DIRS Fix", system="dirs", rounds=2, half_stone=None, acceleration=None)
    for p in players:
        director.post(f"{EN}/{go.pk}/register/", {"player": p.pk})
    rnd = pair(director, go)
    edit(director, go, 1, action="publish")
    board = Board.objects.select_related("white", "black").get(round=rnd)
    by_player = {board.white.player_id: "white", board.black.player_id: "black"}
    first = players[0].pk  # acceleration 3
    result(director, go, 1, 1, by_player[first])
    game = DirsGame.objects.get(board=board)
    assert game.rated
    before = {r.player_id: (r.rating, r.acceleration, r.games) for r in DirsRating.objects.all()}
    # 110 with acceleration 3 + 1 = 4 climbs ceil(4 / (4 - 2)) = 2 steps of 2 in the club: 114; the loser 108.
    assert before[first] == (114, 4, 1)
    assert before[players[1].pk] == (108, 0, 1)

    second_colour = by_player[players[1].pk]
    correct(director, go, 1, 1, second_colour)
    after = {r.player_id: (r.rating, r.acceleration, r.games) for r in DirsRating.objects.all()}
    # Taken back to 110 / acceleration 3 and 110 / 0, then the other wins: 110 + 2 = 112 (acceleration 1), 110 - 2.
    assert after[first] == (108, 0, 1)
    assert after[players[1].pk] == (112, 1, 1)
    assert DirsGame.objects.filter(board=board).count() == 1
    assert DirsGame.objects.get(board=board).winner == second_colour

    # A club game played since by one of them: the tournament game's club rating can no longer be taken back.
    other = PlayerFactory()
    dirs_services.dirs_rating_set_initial(player=other, rank="10k")
    dirs_services.dirs_game_record(
        date=go.tournament.start_date,
        club=None,
        white=players[0],
        black=other,
        handicap=0,
        komi="normal",
        winner="white",
    )
    response = correct(director, go, 1, 1, by_player[first])
    assert "has played a club game since" in response.content.decode()
    assert DirsGame.objects.get(board=board).winner == second_colour
