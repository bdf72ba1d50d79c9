"""OpenGotha's special results (issue 27): both lose, both win, a double forfeit, and a bye by request, in the
engine, the standings, the crosstable, a player's games, the EGD table and the DIRS club rating.

What each counts as (the rules are silent; decided in ``tournaments.pairing.GameResult``, ``models.Absence``,
``dirs_mode`` and ``egd``): both win and both lose count for each player as the win or the loss they say; a double
forfeit is both lose, not played; EGD's table writes each as the free round it counts as (``0+`` / ``0-``), since
EGD rates no game without one winner or not played; DIRS rates none of them (nor a single forfeit: not played);
a bye by request is a round the player sits out at their own request: no points, the streak ends, as an absence.
"""

import pytest

from ratings.dirs.models import DirsGame, DirsRating
from tests.factories import organiser
from tests.ratings.dirs.helpers import rated_player
from tournaments import pairing
from tournaments.go import egd_read, selectors, sheets
from tournaments.go.models import Board, Round

from .egd_validator import validate
from .helpers import EN, approve, create, edit, pair, result

pytestmark = pytest.mark.django_db


def test_the_engine_counts_both_win_and_both_lose_for_each_player():
    """FUS, 3 rounds, A 2000 (40), B 2000 (40): both win round 1 (41 each, streaks 1), both lose round 2 (streaks
    end), then A beats B: 41 + 1 = 42."""
    options = pairing.Options.fus(3)
    players = [pairing.Entrant("a", 2000, "A"), pairing.Entrant("b", 2000, "B")]
    games = [
        [pairing.GameResult("a", "b", None, both=pairing.BOTH_WIN)],
        [pairing.GameResult("b", "a", None, both=pairing.BOTH_LOSE)],
        [pairing.GameResult("a", "b", "a")],
    ]
    state = pairing.replay(options, players, games)
    assert [(p.id, p.level, p.streak) for p in state.players] == [("a", 42, 1), ("b", 41, 0)]
    a = state.player("a")
    assert [(e.result, e.points) for e in a.history] == [("win", 1), ("loss", 0), ("win", 1)]
    with pytest.raises(Exception, match="neither"):
        pairing.replay(options, players, [[pairing.GameResult("a", "b", None, both="draw")]])
    # ``manage.py rate`` takes them as "both" instead of a winner.
    doc = {
        "system": "selfhandicap",
        "rounds": 3,
        "options": {"half_stone": True, "acceleration": True},
        "players": [{"id": "a", "rating": 2000}, {"id": "b", "rating": 2000}],
        "games": [[{"white": "a", "black": "b", "both": "win"}], [{"white": "b", "black": "a", "both": "loss"}]],
    }
    levels = {s["player"]: s["level"] for s in pairing.rate_document(doc)["standings"]}
    assert levels == {"a": 41, "b": 41}


@pytest.fixture
def director(client):
    client.force_login(organiser(username="special-director"))
    return client


def _five(director):
    """FUS, 2 rounds, five players A..E; D asks for a bye by request in round 1, so four play it."""
    go = create(director, name="Special", rounds=2)
    for name, rating in (("A", 2000), ("B", 1950), ("C", 1900), ("D", 1850), ("E", 1800)):
        director.post(f"{EN}/{go.pk}/register/", {"surname": name, "rating": rating, "country": "RU"})
    regs = {r.name: r for r in go.registrations.all()}
    response = director.post(
        f"{EN}/{go.pk}/absence/", {"registration": regs["D"].pk, "round_number": 1, "absent": "request"}, follow=True
    )
    assert response.status_code == 200
    return go, regs


def test_special_results_in_the_standings_crosstable_player_page_and_egd_table(director, client):
    go, regs = _five(director)
    assert "1 (bye by request)" in director.get(f"{EN}/{go.pk}/").content.decode()
    rnd = pair(director, go)
    playing = {b.white_id for b in rnd.boards.all()} | {b.black_id for b in rnd.boards.all()}
    assert regs["D"].pk not in playing
    edit(director, go, 1, action="publish")
    page = director.get(f"{EN}/{go.pk}/rounds/1/").content.decode()
    assert '<option value="both_lose">both lose</option>' in page
    boards = list(rnd.boards.order_by("number"))
    result(director, go, 1, boards[0].number, "both_lose")
    result(director, go, 1, boards[1].number, "both_win")
    rnd.refresh_from_db()
    assert rnd.completed
    lose, win = boards[0], boards[1]
    rows = {s.registration_id: s for s in rnd.standings.all()}
    for reg_id in (lose.white_id, lose.black_id):
        assert rows[reg_id].level == rows[reg_id].start_level  # a loss each
    for reg_id in (win.white_id, win.black_id):
        assert rows[reg_id].level == rows[reg_id].start_level + 1  # a win each
    assert rows[regs["D"].pk].level == rows[regs["D"].pk].start_level  # no points by request
    lines = {line.registration_id: line for line in sheets.standings_table(go=go, upto=1, language="en")}
    assert lines[win.white_id].wins == lines[win.black_id].wins == 1
    assert lines[lose.white_id].wins == lines[lose.black_id].wins == 0
    assert lines[regs["D"].pk].cells[0].kind == "requested"
    crosstable = director.get(f"{EN}/{go.pk}/crosstable/").content.decode()
    assert crosstable.count(": both lose") == 2
    assert crosstable.count(": both win") == 2
    assert "by request" in crosstable
    player = director.get(f"{EN}/{go.pk}/players/{lose.white_id}/").content.decode()
    assert "loss (both lose)" in player
    player = director.get(f"{EN}/{go.pk}/players/{regs['D'].pk}/").content.decode()
    assert "bye by request (not paired, no points)" in player

    # Round 2: a double forfeit, then the EGD table.
    rnd2 = pair(director, go)
    edit(director, go, 2, action="publish")
    first = rnd2.boards.order_by("number").first()
    result(director, go, 2, first.number, "double_forfeit")
    for board in rnd2.boards.exclude(pk=first.pk):
        result(director, go, 2, board.number, "white")
    director.post(f"{EN}/{go.pk}/egd-class/", {"egd_class": "C"})
    text = director.get(f"{EN}/{go.pk}/egd.h9").content.decode("ascii")
    read = validate(text)  # EGD would accept it: no game without one winner written as a game
    table = egd_read.read_h9(text)
    assert table.problems == []
    # Each special round is a free round EGD does not rate, with the game after the line's ';'.
    specials = [(p.place, r, e.sign, e.unplayed) for p in table.players for r, e in p.played]
    assert sorted(sign for _p, r, sign, _u in specials if r == 1) == ["+", "+", "-", "-"]
    assert sorted((sign, unplayed) for _p, r, sign, unplayed in specials if r == 2) == [("-", True), ("-", True)]
    for p in read.players:
        for r, e in table.players[[q.place for q in table.players].index(p.place)].played:
            assert (p.games[r - 1].opponent, p.games[r - 1].result) == (0, e.sign)
    approve(go)
    assert client.get(f"{EN}/{go.pk}/crosstable/").status_code == 200


def test_a_dirs_tournament_rates_no_special_result_nor_a_forfeit(client):
    """DIRS rates a game played with one winner (rules/go.md, part 2): both lose, both win, a double forfeit and a
    forfeit move nobody in the club rating; a game played does."""
    client.force_login(organiser())
    players = [rated_player(rank) for rank in ("10k", "10k", "10k", "10k", "10k", "10k", "10k", "10k")]  # 110
    go = create(client, name="DIRS Specials", system="dirs", rounds=2, half_stone=None, acceleration=None)
    for p in players:
        client.post(f"{EN}/{go.pk}/register/", {"player": p.pk})
    rnd = pair(client, go)
    edit(client, go, 1, action="publish")
    numbers = list(rnd.boards.order_by("number").values_list("number", flat=True))
    for number, value in zip(numbers, ("both_lose", "both_win", "black_forfeit", "white"), strict=True):
        result(client, go, 1, number, value)
    rnd.refresh_from_db()
    assert rnd.completed
    assert list(DirsGame.objects.filter(board__round=rnd).values_list("board__number", flat=True)) == [numbers[3]]
    played = Board.objects.get(round=rnd, number=numbers[3])
    ratings = dict(DirsRating.objects.values_list("player__pk", "rating"))
    assert ratings[played.white.player_id] > 110 > ratings[played.black.player_id]
    others = [p.pk for p in players if p.pk not in (played.white.player_id, played.black.player_id)]
    assert {ratings[pk] for pk in others} == {110}
    # The tournament's own ratings: a forfeit is a win and a loss there; the results for both move nobody.
    state = selectors.tournament_state(selectors.tournament_data(go=go), 1)
    forfeit = Board.objects.get(round=rnd, number=numbers[2])
    assert state.player(f"r{forfeit.black_id}").level > 110 > state.player(f"r{forfeit.white_id}").level
    for number in numbers[:2]:
        board = Board.objects.get(round=rnd, number=number)
        assert state.player(f"r{board.white_id}").level == state.player(f"r{board.black_id}").level == 110
    assert Round.objects.get(pk=rnd.pk).standings.count() == 8
