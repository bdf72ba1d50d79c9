"""Every write of the DIRS club rating shows at once on the pages that show it (``federation.versions``): the
leaderboard, a player's DIRS page and the player's page are rendered (and cached), the service runs and commits, and
the pages show the change.

A test's transaction never commits, so each write runs its commit callbacks
(``django_capture_on_commit_callbacks(execute=True)``), as a real request or task commits."""

import datetime
import io
import json
import sys

import pytest
from django.core.management import call_command

from ratings.dirs import services
from ratings.dirs.models import DirsRating
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

EN = "/en/go/dirs"


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_first_rating_and_a_game_show_at_once(client, committed):
    with committed():
        ann = PlayerFactory(last_name_latin="Annfresh", first_name_latin="A")
        bob = PlayerFactory(last_name_latin="Bobfresh", first_name_latin="B")
        services.dirs_rating_set_initial(player=ann, rank="3k")
    assert "Bobfresh" not in _page(client, f"{EN}/")
    with committed():
        services.dirs_rating_set_initial(player=bob, rank="5k")
    board = _page(client, f"{EN}/")
    assert "Bobfresh" in board
    assert ">180</td>" in board
    urls = [f"{EN}/", f"{EN}/players/{ann.pk}/", f"/en/players/{ann.pk}/"]
    before = [_page(client, url) for url in urls]
    assert 'id="dirs-chart"' not in before[2]
    with committed():
        services.dirs_game_record(
            date=datetime.date(2026, 3, 7), club=None, white=ann, black=bob, handicap=2, komi="reverse", winner="white"
        )
    after = [_page(client, url) for url in urls]
    assert DirsRating.objects.get(player=ann).rating == 182
    assert ">182</td>" in after[0]
    assert '<strong id="dirs-rating">182</strong>' in after[1]
    assert "Bobfresh" in after[1]  # the game, against Bob
    assert "<strong>182</strong>" in after[2]
    assert 'id="dirs-chart"' in after[2]


def test_a_history_import_shows_at_once(client, committed, monkeypatch):
    assert "Histdirs" not in _page(client, f"{EN}/")
    doc = {
        "system": "dirs",
        "ratings": {"h-ann": 150, "h-bob": 130},
        "players": [{"id": "h-ann", "name_latin": "Histdirs Ann"}, {"id": "h-bob", "name_latin": "Histdirs Bob"}],
        "games": [{"white": "h-ann", "black": "h-bob", "winner": "h-ann", "handicap": 2, "komi": "normal"}],
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(doc)))
    with committed():
        call_command("import_history", "-", stdout=io.StringIO(), stderr=io.StringIO())
    assert _page(client, f"{EN}/").count("Histdirs") == 2
