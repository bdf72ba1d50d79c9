"""What a list page shows beside its rows (a filter's clubs, cities and countries, the DIRS leaderboard's count) is
read once for the page's version (``federation.caching.page_memo``): another address of the same list (another page
number, another sort) reads and writes its rows but not those again, and anything that changes the version (a new
club, a new rating) shows at once."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.caching import page_memo
from ratings.dirs.models import DirsRating
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def _rated(n: int, club=None) -> None:
    for i in range(n):
        DirsRating.objects.create(
            player=PlayerFactory(city=["Казань", "Тверь"][i % 2]),
            rating=100 + i,
            initial_rating=100,
            declared_rank="10k",
            games=1,
            club=club,
        )


def _statements(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return [query["sql"] for query in queries.captured_queries]


def test_outside_a_cached_page_the_value_is_computed_every_time():
    calls = []
    assert page_memo(("k",), lambda: calls.append(1) or len(calls)) == 1
    assert page_memo(("k",), lambda: calls.append(1) or len(calls)) == 2


def test_another_page_of_the_list_does_not_read_the_clubs_and_the_count_again(client):
    _rated(60, club=ClubFactory(name="Ирбис"))
    first = _statements(client, "/go/dirs/")
    assert any("federation_club" in sql and "ORDER BY" in sql and "dirs_" not in sql for sql in first)
    assert any("COUNT(*)" in sql and "dirs_dirsrating" in sql for sql in first)
    second = _statements(client, "/go/dirs/?page=2")
    assert not any("federation_club" in sql and "dirs_" not in sql for sql in second), second
    assert not any("COUNT(*)" in sql for sql in second), second
    page = client.get("/go/dirs/?page=2").content.decode()
    assert re.search(r'<option value="\d+">Ирбис', page)
    assert 'aria-label="Table navigation"' in page  # 60 players: two pages, as counted


def test_a_new_club_and_a_new_rating_show_at_once(client):
    _rated(50)
    before = client.get("/en/go/dirs/?sort=-rating").content.decode()
    assert not re.search(r'<option value="\d+">Барс', before)
    assert "page=2" not in before  # 50 players: one page
    club = ClubFactory(name="Барс")
    _rated(1, club=club)
    after = client.get("/en/go/dirs/?sort=rating").content.decode()
    assert re.search(r'<option value="\d+">Барс', after)
    assert "page=2" in after  # 51 players: the count was read again for the new version


def test_a_mahjong_cities_filter_follows_its_snapshot(client):
    """The places are kept per statement and its values (the snapshot shown), not only per page and version."""
    import datetime

    from ratings.mahjong import services as mahjong
    from tests.ratings.mahjong.factories import mahjong_tournament

    mahjong.mahjong_setup_defaults()
    early = [PlayerFactory(city="Омск") for _ in range(16)]
    late = [PlayerFactory(city="Сочи") for _ in range(16)]
    for t in range(3):
        mahjong_tournament(players=early[t:] + early[:t], end=datetime.date(2025, 1, 1) + datetime.timedelta(20 * t))
    mahjong.mahjong_daily(today=datetime.date(2025, 3, 1))
    for t in range(3):
        mahjong_tournament(players=late[t:] + late[:t], end=datetime.date(2025, 4, 1) + datetime.timedelta(20 * t))
    mahjong.mahjong_daily(today=datetime.date(2025, 6, 1))
    old = client.get("/ratings/mahjong/mahjong-rr/?date=2025-03-01").content.decode()
    new = client.get("/ratings/mahjong/mahjong-rr/").content.decode()
    assert ">Омск</option>" in old
    assert ">Сочи</option>" not in old
    assert ">Сочи</option>" in new
    assert ">Омск</option>" in new
