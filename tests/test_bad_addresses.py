"""Whatever a visitor types into the address, the site answers with a page or a 404, never a server error."""

import pytest

from tests.factories import ResultFactory, TournamentFactory

BAD_QUERIES = [
    "?page=-1",
    "?page=abc",
    "?page=999999",
    "?sort=bogus",
    "?date=2026-13-45",
    "?date=0001-01-01",
    "?week=garbage",
    "?week=2026-W99",
    "?club=abc",
    "?club=999999",
    "?country=ZZZ",
    "?q=%27%3B--",
    "?q=%00",
    "?_export=xls",
    "?league=nope",
]
PAGES = [
    "/",
    "/players/",
    "/tournaments/",
    "/ratings/cards/",
    "/ratings/cards/gorbunov/",
    "/ratings/cards/calculator/api/",
    "/ratings/mahjong/",
    "/ratings/mahjong/mahjong-rr/",
    "/ratings/mahjong/mahjong-rr/dates/",
    "/ratings/mahjong/mahjong-rr/tournaments/",
    "/ratings/mahjong/calculator.json",
    "/go/",
    "/go/dirs/",
    "/go/calculator.json",
    "/preferans/",
    "/preferans/calculator/data/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES)
def test_bad_queries_never_make_a_server_error(client, page):
    tournament = TournamentFactory()
    ResultFactory(tournament=tournament, place=1)
    for query in BAD_QUERIES:
        for prefix in ("", "/en"):
            response = client.get(prefix + page + query)
            assert response.status_code in (200, 302, 400, 404), (prefix + page + query, response.status_code)
