"""Every write of the preferans rating shows at once on the pages that show it (``federation.versions``): a page is
rendered (and cached), the service runs and commits, the page is rendered again and shows the change.

A test's transaction never commits, so each write runs its commit callbacks
(``django_capture_on_commit_callbacks(execute=True)``), as a real request or task commits."""

import io
import json
import sys

import pytest
from django.core.management import call_command

from ratings.models import RatingList
from ratings.preferans.models import Game, PreferansRating
from ratings.preferans.services import (
    BulkDeal,
    BulkGame,
    DealInput,
    deals_apply,
    deals_import_bulk,
    deals_import_rows,
    game_create,
    game_finish,
    ratings_ensure,
)
from tests.factories import PlayerFactory

from .conftest import WHEN, rated

pytestmark = pytest.mark.django_db

BOARD = "/en/preferans/"
GAMES = "/en/preferans/games/"


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def table(committed):
    with committed():
        players = [rated(1000, last_name_latin=f"Latin{n}") for n in range(3)]
        game, _ = game_create(server=None, external_id="g-1", player_ids=[p.pk for p in players], played_at=WHEN)
    return game, players


def _page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_deal_shows_on_the_leaderboard_the_players_page_and_the_games(client, post, server, committed):
    with committed():
        players = [rated(1000) for _ in range(3)]
        game = post("/api/preferans/games/", {"id": "g-1", "players": [p.pk for p in players]}, server.token).json()
    urls = [BOARD, f"/en/players/{players[0].pk}/", GAMES, f"/en/preferans/games/{game['game']}/"]
    before = [_page(client, url) for url in urls]
    assert "No deals yet." in before[3]
    with committed():
        deal = {"id": "d-1", "whists": {str(players[0].pk): 10, str(players[1].pk): -4, str(players[2].pk): -6}}
        assert post(f"/api/preferans/games/{game['game']}/deals/", deal, server.token).status_code == 201
    after = [_page(client, url) for url in urls]
    rating = PreferansRating.objects.get(player=players[0]).rating
    assert f"{rating:.2f}" in after[0]
    assert f"{rating:.2f}" in after[1]
    assert 'id="preferans-deals"' in after[1]
    assert '<td class="text-end">1</td>' in after[2]  # the game's deals
    assert "No deals yet." not in after[3]


def test_a_deal_entered_by_hand_and_an_import_show_at_once(client, table, committed):
    game, players = table
    before = _page(client, BOARD)
    with committed():
        deals_apply(deals=[DealInput(game=game, whists={players[0].pk: 8, players[1].pk: -8})])
    middle = _page(client, BOARD)
    assert middle != before
    assert f"{PreferansRating.objects.get(player=players[0]).rating:.2f}" in middle

    from ratings.preferans.importing import ParsedDeal

    games = _page(client, GAMES)
    parsed = [ParsedDeal(game="file-1", date=None, deal="1", whists={players[2].pk: 5, players[1].pk: -5}, rows=[2])]
    with committed():
        deals_import_rows(deals=parsed, dry_run=False)
    assert f"{PreferansRating.objects.get(player=players[2]).rating:.2f}" in _page(client, BOARD)
    new = Game.objects.get(external_id="file-1")
    assert f"/en/preferans/games/{new.pk}/" not in games
    assert f"/en/preferans/games/{new.pk}/" in _page(client, GAMES)


def test_a_bulk_import_shows_at_once(client, committed):
    people = [PlayerFactory(last_name_latin=f"Bulk{n}") for n in range(3)]
    with committed():
        ratings_ensure(player_ids=[people[0].pk])
    before = _page(client, BOARD)
    assert "Bulk0" in before
    assert "Bulk1" not in before
    with committed():
        deals_import_bulk(
            games=[BulkGame(key="b-1", player_ids=tuple(p.pk for p in people), played_at=WHEN)],
            deals=[BulkDeal(game="b-1", whists={people[0].pk: 3, people[1].pk: -1, people[2].pk: -2})],
        )
    after = _page(client, BOARD)
    assert "Bulk1" in after
    assert f"{PreferansRating.objects.get(player=people[0]).rating:.2f}" in after


def test_a_new_and_a_finished_game_show_at_once(client, table, committed):
    game, players = table
    assert "in progress" in _page(client, f"/en/preferans/games/{game.pk}/")
    before = _page(client, GAMES)
    with committed():
        game_create(server=None, external_id="g-2", player_ids=[p.pk for p in players[:2]], played_at=WHEN)
    assert _page(client, GAMES).count("in progress") == before.count("in progress") + 1
    with committed():
        game_finish(game=game)
    assert "in progress" not in _page(client, f"/en/preferans/games/{game.pk}/")


def test_a_history_import_shows_at_once(client, committed, monkeypatch):
    assert "hist-a" not in _page(client, BOARD).lower()
    doc = {
        "system": "preferans",
        "ratings_date": "2019-01-01",
        "ratings": {"hist-a": 1000, "hist-b": 1000},
        "players": [{"id": "hist-a", "name_latin": "Hista Ann"}, {"id": "hist-b", "name_latin": "Histb Bob"}],
        "deals": [{"game": "h-1", "whists": {"hist-a": 4, "hist-b": -4}, "date": "2019-02-01"}],
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(doc)))
    assert RatingList.objects.filter(slug="preferans").exists()
    with committed():
        call_command("import_history", "-", stdout=io.StringIO(), stderr=io.StringIO())
    after = _page(client, BOARD)
    assert "Hista" in after
    assert "Histb" in after
