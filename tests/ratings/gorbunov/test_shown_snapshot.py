"""The publication a Gorbunov list's page shows for the week asked (``selectors.shown_snapshot``, issue 16) is the one
``ratings.dates.list_for_date`` picks, with the same message, and the usual request (the newest list, or a week that
has its own publication) is one prepared statement that reads the publication and its list together."""

import datetime

import pytest
from django.http import QueryDict
from django.utils import translation

from ratings.dates import asked_date, list_for_date
from ratings.engines.gorbunov import week_start
from ratings.gorbunov import selectors, services
from ratings.models import RatingList
from tests.ratings.gorbunov.conftest import week

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(gorbunov_list, season):
    for n in (1, 2, 4):
        services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(n))
    return gorbunov_list


def _iso_week(day: datetime.date) -> str:
    year, number, _weekday = day.isocalendar()
    return f"{year}-W{number:02d}"


def _queries() -> list[str]:
    wednesday = week(2) + datetime.timedelta(days=2)
    return [
        "",
        f"week={_iso_week(week(1))}",
        f"week={_iso_week(week(4))}",
        f"week={_iso_week(week(3))}",  # no publication that week: the one in force, said so
        f"week={_iso_week(week(-3))}",  # before the first: the first, said so
        f"week={_iso_week(week(30))}",
        f"date={wednesday:%Y-%m-%d}",
        f"date={week(2):%Y-%m-%d}",
        "week=2026-W99",
        "date=yesterday",
    ]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_publication_and_the_message_are_list_for_dates(published, language):
    with translation.override(language):
        for query in _queries():
            asked = asked_date(QueryDict(query))
            expected = list_for_date(
                selectors.shown_list_snapshots(slug=published.slug), asked, period_start=week_start
            )
            shown = selectors.shown_snapshot(slug=published.slug, asked=asked)
            assert shown.message == expected.message, query
            assert shown.snapshot == expected.snapshot, query
            assert shown.snapshot.as_of == expected.snapshot.as_of
            assert shown.snapshot.stored_players == expected.snapshot.stored_players
            assert shown.snapshot.rating_list.params == published.params
            assert shown.snapshot.rating_list.display_name(language) == published.display_name(language)


def test_the_usual_request_is_one_query(published, django_assert_num_queries):
    for query in ["", f"week={_iso_week(week(2))}"]:
        with django_assert_num_queries(1):
            shown = selectors.shown_snapshot(slug=published.slug, asked=asked_date(QueryDict(query)))
            assert shown.snapshot.rating_list.slug == published.slug  # read with it
            assert shown.snapshot.stored_players is not None
    assert shown.snapshot.as_of == week(2)


def test_a_list_without_publications_or_not_active_shows_none(gorbunov_list, published):
    empty = RatingList.objects.create(slug="empty", name="Пустой", engine=gorbunov_list.engine)
    assert selectors.shown_snapshot(slug=empty.slug, asked=asked_date(QueryDict(""))).snapshot is None
    RatingList.objects.filter(pk=published.pk).update(is_active=False)
    assert selectors.shown_snapshot(slug=published.slug, asked=asked_date(QueryDict(""))).snapshot is None
