"""Fast result entry: every board of a round on one page, each saved on its own as JSON (the keyboard itself is
driven in tests/web/test_browser_venue.py)."""

import datetime
import re

import pytest
from django.test import Client

from tests.factories import UserFactory, organiser
from tournaments.go import services
from tournaments.go.models import Board

from .helpers import EN

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 7)


def _round(players: int = 6, *, draws: bool = False):
    user = organiser(username="entry-director")
    go = services.go_tournament_create(
        user=user, name="Entry", start_date=DAY, end_date=DAY, system="fus", rounds=3, half_stone=True,
        acceleration=True, draws_allowed=draws,
    )  # fmt: skip
    for i in range(players):
        services.go_registration_add(go=go, name=f"P{i}", rating=2000 - 40 * i)
    rnd = services.go_round_pair(go=go, user=user)
    services.go_round_publish(go_round=rnd, user=user)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return go, rnd, client


def _token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def test_the_page_lists_every_board_with_nothing_chosen():
    go, _rnd, client = _round()
    page = client.get(f"{EN}/{go.pk}/rounds/1/enter/").content.decode()
    assert page.count('<tr id="entry-') == 3
    assert 'id="entry-input"' in page
    assert "js/go-entry.js" in page
    assert "<script>" not in page  # the keyboard's code is a static file (no inline script)
    assert " selected" not in page
    assert "checked" not in page
    assert page.count(">White wins<") == 3
    assert ">Draw<" not in page  # this tournament forbids draws
    assert "F then W or B (win by forfeit)" in page


def test_each_board_is_saved_on_its_own_with_the_pages_csrf_token(django_assert_max_num_queries):
    go, rnd, client = _round()
    token = _token(client.get(f"{EN}/{go.pk}/rounds/1/enter/").content.decode())
    url = f"{EN}/{go.pk}/rounds/1/result.json"
    assert client.post(url, {"board": 2, "result": "black"}).status_code == 403  # no token: refused
    with django_assert_max_num_queries(14):
        answer = client.post(url, {"board": 2, "result": "black", "version": 0}, HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 200
    assert answer.json() == {"board": 2, "result": "black", "label": "black wins", "version": 1, "remaining": 2}
    assert Board.objects.get(round=rnd, number=2).result == "black"
    answer = client.post(url, {"board": 1, "result": "white_forfeit"}, HTTP_X_CSRFTOKEN=token)
    assert answer.json()["label"] == "white wins by forfeit"
    answer = client.post(url, {"board": 3, "result": "white"}, HTTP_X_CSRFTOKEN=token)
    assert answer.json()["remaining"] == 0
    rnd.refresh_from_db()
    assert rnd.completed


@pytest.mark.parametrize(
    ("data", "message", "field"),
    [
        ({"board": 1, "result": ""}, "Choose a result.", "result"),
        ({"board": 1, "result": "w"}, "Choose a result.", "result"),
        ({"board": 1, "result": "draw"}, "This tournament does not allow draws.", "result"),
        ({"board": 9, "result": "white"}, "Board 9 is not in round 1.", "board"),
        ({"board": 1, "result": "white", "version": 5}, "Board 1 was changed meanwhile: reload the page.", "board"),
    ],
)
def test_refusals_come_back_with_the_reason_and_save_nothing(data, message, field):
    go, rnd, client = _round()
    token = _token(client.get(f"{EN}/{go.pk}/rounds/1/enter/").content.decode())
    answer = client.post(f"{EN}/{go.pk}/rounds/1/result.json", data, HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 400
    assert answer.json() == {"error": message, "field": field}
    assert not Board.objects.filter(round=rnd).exclude(result="").exists()


def test_a_board_with_a_result_is_not_entered_twice():
    go, _rnd, client = _round()
    token = _token(client.get(f"{EN}/{go.pk}/rounds/1/enter/").content.decode())
    url = f"{EN}/{go.pk}/rounds/1/result.json"
    client.post(url, {"board": 1, "result": "white"}, HTTP_X_CSRFTOKEN=token)
    answer = client.post(url, {"board": 1, "result": "black"}, HTTP_X_CSRFTOKEN=token)
    assert answer.json()["error"] == "Board 1 already has a result (white wins)."
    page = client.get(f"{EN}/{go.pk}/rounds/1/enter/").content.decode()
    row = page.split('<tr id="entry-1"')[1].split("</tr>")[0]
    assert 'class="saved"' in row
    assert row.count("disabled") == 7  # white, black, two forfeits and the three results for both players


def test_draws_where_allowed_and_a_draft_round():
    go, _rnd, client = _round(draws=True)
    page = client.get(f"{EN}/{go.pk}/rounds/1/enter/").content.decode()
    assert ">Draw<" in page
    assert 'data-draws="1"' in page
    other = Client()
    other.force_login(UserFactory())
    assert other.get(f"{EN}/{go.pk}/rounds/1/enter/").status_code == 404  # a draft is the director's alone
    assert client.get(f"{EN}/{go.pk}/rounds/7/enter/").status_code == 404
