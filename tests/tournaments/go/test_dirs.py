"""DIRS club games (rated and not rated, with the reason), the leaderboard, the chart, the DIRS tournament mode."""

import datetime

import pytest
from django.contrib.auth.models import Permission

from tests.factories import ClubFactory, PlayerFactory, UserFactory, organiser
from tournaments.go import services
from tournaments.go.models import DirsGame, DirsRating

from .helpers import EN, boards, create, edit, pair, result

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 7)


def rated_player(rank, **kwargs):
    player = PlayerFactory(**kwargs)
    services.dirs_rating_set_initial(player=player, rank=rank)
    return player


def test_initial_rating_from_the_declared_rank():
    p = PlayerFactory()
    r = services.dirs_rating_set_initial(player=p, rank="5k")
    assert (r.rating, r.acceleration, r.declared_rank) == (160, 0, "5k")
    with pytest.raises(services.GoError, match="already has a DIRS rating"):
        services.dirs_rating_set_initial(player=p, rank="2d")
    with pytest.raises(services.GoError, match="is not a rank"):
        services.dirs_rating_set_initial(player=PlayerFactory(), rank="strong")


def test_a_game_on_the_prescribed_handicap_is_rated():
    strong, weak = rated_player("2d"), rated_player("1k")  # 220 and 200: d = 20 -> 2 stones, reverse komi
    game = services.dirs_game_record(
        date=DAY, club=None, white=strong, black=weak, handicap=2, komi="reverse", winner="black"
    )
    assert game.rated
    assert (game.white_before, game.white_after, game.black_before, game.black_after) == (220, 219, 200, 201)
    assert DirsRating.objects.get(player=weak).acceleration == 1
    assert "Winner: acceleration 0 + 1 = 1" in game.explanation_en


def test_a_game_on_the_wrong_handicap_is_recorded_but_not_rated():
    strong, weak = rated_player("2d"), rated_player("1k")
    game = services.dirs_game_record(
        date=DAY, club=None, white=strong, black=weak, handicap=0, komi="normal", winner="white"
    )
    assert not game.rated
    assert "not rated: played 0 stones, komi normal; DIRS prescribes 2 stones, komi reverse" in game.reason_en
    assert DirsRating.objects.get(player=strong).rating == 220
    assert DirsRating.objects.get(player=strong).games == 0


def test_the_weaker_on_white_is_not_rated_and_a_player_without_rating_is_refused():
    strong, weak = rated_player("2d"), rated_player("1k")
    game = services.dirs_game_record(
        date=DAY, club=None, white=weak, black=strong, handicap=2, komi="reverse", winner="white"
    )
    assert not game.rated
    assert "the weaker player (200) took white" in game.reason_en
    with pytest.raises(services.GoError, match="has no DIRS rating yet"):
        services.dirs_game_record(
            date=DAY, club=None, white=strong, black=PlayerFactory(), handicap=0, komi="normal", winner="white"
        )


def test_the_game_form_leaderboard_and_chart(client):
    user = organiser()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_dirsgame", "add_dirsrating"]))
    client.force_login(user)
    club = ClubFactory(name="Tengen")
    ann = rated_player("3k", last_name="Анна", last_name_latin="Anna", first_name_latin="A", club=club)
    bob = rated_player("5k", last_name="Боб", last_name_latin="Bob", first_name_latin="B")
    page = client.get(f"{EN}/dirs/games/new/")
    assert page.status_code == 200
    response = client.post(
        f"{EN}/dirs/games/new/",
        {
            "date": "2026-03-07",
            "club": club.pk,
            "white": ann.pk,
            "black": bob.pk,
            "handicap": 2,
            "komi": "reverse",
            "winner": "white",
        },
        follow=True,
    )
    assert "Rated:" in response.content.decode()
    response = client.post(
        f"{EN}/dirs/games/new/",
        {"date": "2026-03-08", "white": ann.pk, "black": bob.pk, "handicap": 0, "komi": "normal", "winner": "white"},
        follow=True,
    )
    assert "Recorded, not rated:" in response.content.decode()
    assert DirsGame.objects.count() == 2
    # The calculator proposes "2 stones, reverse komi" for 181 and 160 (d = 21).
    data = client.get(f"{EN}/calculator.json", {"scale": "dirs", "a": 181, "b": 160}).json()
    assert (data["stones"], data["komi"], data["text"]) == (2, "reverse", "2 stones, reverse komi")
    page = client.get(f"{EN}/dirs/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Anna A" in text
    assert "3k" in text
    assert text.index("Anna A") < text.index("Bob B")
    csv = client.get(f"{EN}/dirs/", {"_export": "csv"}).content.decode()
    assert "Anna A" in csv
    page = client.get(f"{EN}/dirs/players/{ann.pk}/")
    assert page.status_code == 200
    assert 'id="dirs-chart"' in page.content.decode()
    assert '"rating": 182' in page.content.decode()  # 180 + one step of 2
    # The player page's Go section.
    from tournaments.go.sections import player_section

    html = player_section(page.wsgi_request, ann)
    assert "182" in html


def test_calculator_page_and_json():
    from django.test import Client

    c = Client()
    assert c.get(f"{EN}/calculator/").status_code == 200
    data = c.get(f"{EN}/calculator.json", {"scale": "tournament", "a": 1600, "b": 1300, "half_stone": "on"}).json()
    # 32 vs 26: d = 6 -> 3 stones, reverse komi; B takes black.
    assert (data["level_a"], data["level_b"], data["stones"], data["komi"], data["black"]) == (
        32,
        26,
        3,
        "reverse",
        "b",
    )
    data = c.get(f"{EN}/calculator.json", {"scale": "tournament", "a": 1600, "b": 1300}).json()
    assert (data["stones"], data["komi"], data["text"]) == (3, "none", "3 stones, no komi")
    data = c.get(f"{EN}/calculator.json", {"scale": "dirs", "a": 200, "b": 100}).json()
    assert data["pairable"] is False
    response = c.get(f"{EN}/calculator.json", {"scale": "dirs", "a": "x", "b": 1})
    assert response.status_code == 400
    assert "a" in response.json()["errors"]


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


def test_dirs_pages_need_permission(client):
    client.force_login(UserFactory())
    assert client.get(f"{EN}/dirs/games/new/").status_code == 403
