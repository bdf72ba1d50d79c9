"""A DIRS tournament (`rules/go.md`, part 2, "DIRS in tournaments"): its own running ratings with the step cap, and
each game also rated in the club rating without the cap."""

import pytest

from ratings.dirs.models import DirsGame, DirsRating
from tests.factories import ClubFactory, organiser
from tests.ratings.dirs.helpers import rated_player

from .helpers import EN, boards, create, edit, pair, result

pytestmark = pytest.mark.django_db


def test_a_dirs_tournament_with_the_step_cap(client):
    director = organiser()
    client.force_login(director)
    club = ClubFactory()
    players = [rated_player(rank) for rank in ("15k", "15k", "16k", "16k")]  # 060, 060, 050, 050
    DirsRating.objects.filter(player=players[0]).update(acceleration=5)
    go = create(client, name="DIRS Cup", system="dirs", rounds=2, half_stone=None, acceleration=None, club=club.pk)
    for p in players:
        client.post(f"{EN}/{go.pk}/register/", {"player": p.pk})
    rnd = pair(client, go)
    names = [p.full_name for p in players]
    got = boards(rnd)
    assert len(got) == 2
    edit(client, go, 1, action="publish")
    for b in rnd.boards.select_related("white", "black"):
        result(client, go, 1, b.number, "white")
    rnd.refresh_from_db()
    assert rnd.completed
    # Winners climb at most rounds left after this one + 1 = 2 steps in the tournament, but not in the club.
    levels = {r.registration.name: r.level for r in rnd.standings.select_related("registration")}
    starts = {r.registration.name: r.start_level for r in rnd.standings.select_related("registration")}
    for b in rnd.boards.select_related("white", "black"):
        climb = levels[b.white.name] - starts[b.white.name]
        assert 0 < climb <= 2 * 3
        assert levels[b.black.name] == starts[b.black.name] - 3
    assert DirsGame.objects.filter(board__round=rnd, rated=True).count() == 2
    assert set(names) == set(levels)
    page = client.get(f"{EN}/{go.pk}/standings/")
    assert "Start rating" in page.content.decode()


def test_a_dirs_tournament_numbers_its_boards_again_after_a_hand_change(client):
    """A DIRS tournament ranks on the levels it pairs on (rating // 5): the top pair is back on board 1."""
    client.force_login(organiser())
    players = [rated_player(rank) for rank in ("5k", "6k", "10k", "11k")]  # 160, 150, 110, 100
    go = create(client, name="DIRS Numbers", system="dirs", rounds=2, half_stone=None, acceleration=None)
    for p in players:
        client.post(f"{EN}/{go.pk}/register/", {"player": p.pk})
    rnd = pair(client, go)
    engine = [(b.number, {b.white.player_id, b.black.player_id}) for b in rnd.boards.select_related("white", "black")]
    assert engine == [(1, {players[0].pk, players[1].pk}), (2, {players[2].pk, players[3].pk})]
    top = rnd.boards.get(number=1)
    edit(client, go, 1, action="unpair", board=1)
    assert list(rnd.boards.values_list("number", flat=True)) == [1]
    edit(client, go, 1, action="pair", first=top.white_id, second=top.black_id)
    again = [(b.number, {b.white.player_id, b.black.player_id}) for b in rnd.boards.select_related("white", "black")]
    assert again == engine
