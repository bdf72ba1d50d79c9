"""A Gorbunov list's page never shows a column of zeros (issue 28): its first week says "new list" instead of a
change column, a week in which nobody moved says so, and a week with changes shows them ("new" for a newcomer)."""

import datetime

import pytest
from django.core.cache import caches

from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

MONDAY = datetime.date(2026, 11, 2)


@pytest.fixture
def weeks():
    rating_list = RatingList.objects.create(slug="news", name="Новости", name_en="News", engine=Engine.GORBUNOV)
    ann, bob = PlayerFactory(last_name_latin="Ann"), PlayerFactory(last_name_latin="Bob")

    def week(n, moved, rows):
        snapshot = RatingSnapshot.objects.create(
            rating_list=rating_list, as_of=MONDAY + datetime.timedelta(weeks=n), summary={"players": 2, "moved": moved}
        )
        for player, rank, rating, delta in rows:
            RatingEntry.objects.create(snapshot=snapshot, player=player, rank=rank, rating=rating, delta=delta)

    week(0, 1, [(ann, 1, 120, None)])
    week(1, 2, [(ann, 1, 130, 10), (bob, 2, 100, None)])
    week(2, 0, [(ann, 1, 130, 0), (bob, 2, 100, 0)])
    caches["default"].clear()
    return rating_list


def _page(client, date=None) -> str:
    caches["default"].clear()
    return client.get("/en/ratings/cards/news/", {"date": date} if date else {}).content.decode()


def test_the_first_week_is_a_new_list_without_a_change_column(client, weeks):
    page = _page(client, "2026-11-02")
    assert "new list" in page
    assert ">Change<" not in page
    assert ">new<" not in page


def test_a_quiet_week_says_so_without_a_column_of_zeros(client, weeks):
    page = _page(client)  # the newest week moved nobody
    assert "No rated tournament moved anyone this week" in page
    assert ">Change<" not in page
    assert 'text-end text-nowrap">0</td>' not in page


def test_a_week_with_changes_shows_them_and_its_newcomers(client, weeks):
    page = _page(client, "2026-11-09")
    assert ">Change<" in page
    assert ">+10</td>" in page
    assert ">new</td>" in page
    assert 'id="list-news"' not in page
    ru = client.get("/ratings/cards/news/", {"date": "2026-11-02"}).content.decode()
    assert "новый список" in ru
