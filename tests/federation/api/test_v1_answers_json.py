"""Issue 27 at the HTTP layer: every answer under /api/ is JSON (the roots, unknown addresses, 405, a refused CSRF
check, a body too large), the seven requests valid by the OpenAPI document that were refused are answered or the
document says they are not valid, and messages speak the API's words, not Python's."""

import pytest
from django.test import Client

from federation.api.v1 import views

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser():
    """A client that checks CSRF as a browser's post is checked."""
    return Client(enforce_csrf_checks=True)


@pytest.mark.parametrize(
    "path", ["/api/", "/api/v1/", "/api/preferans/", "/api/v1/nope", "/api/nope/deeper", "/api/v2/"]
)
def test_every_address_under_api_answers_json(browser, path):
    response = browser.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["errors"][0]["field"] == ""


def test_the_roots_say_where_the_documents_are(browser):
    assert browser.get("/api/v1/").json()["openapi"] == "/api/v1/openapi.json"
    assert browser.get("/api/preferans/").json()["docs"] == "/api/preferans/docs/"


@pytest.mark.parametrize("path", ["/api/preferans/games", "/api/v1/lists"])
def test_a_post_without_the_slash_is_a_json_404_that_names_the_address(browser, path):
    """Both answered an HTML 403 "CSRF verification failed": a game server's developer reads JSON only."""
    response = browser.post(path, data="{}", content_type="application/json")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert f"{path}/" in response.json()["errors"][0]["message"]


def test_a_refused_csrf_check_under_api_is_json():
    from django.test import RequestFactory

    from federation.api.common import csrf_failure

    response = csrf_failure(RequestFactory().post("/api/v1/lists/"), reason="CSRF cookie not set.")
    assert response.status_code == 403
    assert response["Content-Type"].startswith("application/json")
    page = csrf_failure(RequestFactory().post("/en/admin/"), reason="CSRF cookie not set.")
    assert page["Content-Type"].startswith("text/html")


def test_a_method_not_allowed_is_json(browser):
    response = browser.delete("/api/v1/lists/")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize(
    "query",
    [
        "/calculators/go-handicap/?a=620&b=100&scale=dirs",
        "/calculators/mahjong/?players=16&stages=",
        "/calculators/mahjong/?players=16",
        "/lists/gorbunov/?week=2026-W53",
    ],
)
def test_requests_valid_by_the_document_are_answered(client, query):
    """Were 400: the DIRS scale read above 300 as 300; the mahjong calculator without stages or hanchans takes the
    page's 8 hanchans; week 53 of a year of 52 is the week after its week 52."""
    response = client.get("/api/v1" + query)
    assert response.status_code == 200, response.content


def _parameter(document, path, name):
    operation = document["paths"][path]["get"]
    return next(p for p in operation["parameters"] if p["name"] == name)["schema"]


def test_the_document_states_the_bounds_the_validation_enforces(client):
    """A junk week, a format of zeros, no ratings, control characters: refused, and now invalid by the document."""
    document = client.get("/api/v1/openapi.json").json()
    week = _parameter(document, "/api/v1/lists/{slug}/", "week")
    assert "pattern" in str(week)
    assert _parameter(document, "/api/v1/calculators/gorbunov/", "format")["enum"][:2] == ["", "constructed"]
    assert "pattern" in _parameter(document, "/api/v1/calculators/preferans/", "ratings")
    assert "pattern" in _parameter(document, "/api/v1/players/", "search")
    assert _parameter(document, "/api/v1/calculators/gorbunov/", "k")["maximum"] == 16
    assert _parameter(document, "/api/v1/calculators/mahjong/", "players")["maximum"] == 2000
    assert _parameter(document, "/api/v1/players/{id}/", "id")["maximum"] == 2**63 - 1
    for query, field in [
        ("/lists/gorbunov/?week=junk", "week"),
        ("/calculators/gorbunov/?u=4&rt=200&k=1&format=" + "0" * 200, "format"),
        ("/calculators/preferans/?ratings=&tables=1000&whists=1", "ratings"),
        ("/players/?search=a%01b", "search"),
    ]:
        response = client.get("/api/v1" + query + "&lang=en")
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == field


def test_the_calculators_bounds_are_the_documents():
    from ratings.gorbunov.calculator import MAX_PARTICIPANTS
    from ratings.mahjong import calculator

    assert views.GORBUNOV_MAX_PARTICIPANTS == MAX_PARTICIPANTS
    assert (views.MAHJONG_MAX_PLAYERS, views.MAHJONG_MAX_HANCHANS) == (calculator.MAX_PLAYERS, calculator.MAX_HANCHANS)


def test_messages_speak_the_apis_words(client):
    """No "use sys.set_int_max_str_digits()", no echo of a 200-digit number."""
    from ratings.preferans.services import game_server_create

    _server, token = game_server_create(name="Srv")
    huge = "9" * 200
    for response in [
        client.get(f"/api/v1/players/{huge}/?lang=en"),
        client.get(f"/api/v1/players/?page={huge}&lang=en"),
        client.get(f"/api/v1/calculators/gorbunov/?u={huge}&rt=200&k=1&lang=en"),
        client.post(
            "/api/preferans/games/",
            data='{"id": ' + "1" * 5000 + "}",
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        ),
    ]:
        text = response.content.decode()
        assert response.status_code == 400, text
        assert "sys." not in text
        assert "9" * 30 not in text
        assert "1" * 30 not in text
