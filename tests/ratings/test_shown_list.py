"""The publication a list's page shows for the date or week asked (``ratings.dates.shown_list``) is the one
``list_for_date`` picks, with the same message, for a weekly Gorbunov list and a daily mahjong list, read with its
list and what the page needs of its summary; the usual request (the newest list, or a date or week that has its own
publication) is one query."""

import datetime

import pytest
from django.http import QueryDict
from django.utils import translation

from ratings.dates import asked_date, list_for_date, shown_list
from ratings.engines.gorbunov import week_start
from ratings.gorbunov import selectors as gorbunov
from ratings.mahjong import selectors as mahjong
from ratings.models import Engine, RatingList, RatingSnapshot

pytestmark = pytest.mark.django_db

MONDAY = datetime.date(2026, 3, 2)
#: (the list's engine, its snapshots' reader, its period, the summary's count, the days it was published)
LISTS = {
    "gorbunov": (Engine.GORBUNOV, gorbunov.shown_list_snapshots, week_start, "players", [0, 7, 21]),
    "mahjong": (Engine.MAHJONG_RR, mahjong.shown_list_snapshots, lambda day: day, "entries", [0, 1, 9]),
}


@pytest.fixture(params=sorted(LISTS))
def published(request):
    engine, snapshots, period, count, days = LISTS[request.param]
    RatingList.objects.filter(slug="the-list").delete()
    rating_list = RatingList.objects.create(
        slug="the-list", name="Список", name_en="The list", engine=engine, params={"note": "ё"}
    )
    for n, day in enumerate(days):
        RatingSnapshot.objects.create(
            rating_list=rating_list, as_of=MONDAY + datetime.timedelta(days=day), summary={count: 10 + n}
        )
    return rating_list, snapshots, period, count


def _queries() -> list[str]:
    days = [MONDAY + datetime.timedelta(days=n) for n in (0, 1, 3, 7, 9, 12, 21, 40, -30)]
    weeks = [f"week={day.isocalendar()[0]}-W{day.isocalendar()[1]:02d}" for day in days]
    return ["", *(f"date={day:%Y-%m-%d}" for day in days), *weeks, "week=2026-W99", "date=yesterday"]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_publication_and_the_message_are_list_for_dates(published, language):
    rating_list, snapshots, period, count = published
    with translation.override(language):
        for query in _queries():
            asked = asked_date(QueryDict(query))
            expected = list_for_date(snapshots(slug="the-list"), asked, period_start=period)
            shown = shown_list(snapshots, slug="the-list", asked=asked, period_start=period)
            assert (shown.snapshot, shown.message) == (expected.snapshot, expected.message), query
            name = f"stored_{count}"
            assert getattr(shown.snapshot, name) == getattr(expected.snapshot, name)
            assert shown.snapshot.rating_list.params == {"note": "ё"}
            assert shown.snapshot.rating_list.display_name(language) == rating_list.display_name(language)
            assert "summary" in shown.snapshot.get_deferred_fields()


def test_the_usual_request_is_one_query(published, django_assert_num_queries):
    _rating_list, snapshots, period, _count = published
    newest = RatingSnapshot.objects.order_by("-as_of").first()
    for query in ["", f"date={newest.as_of:%Y-%m-%d}"]:
        with django_assert_num_queries(1):
            shown = shown_list(snapshots, slug="the-list", asked=asked_date(QueryDict(query)), period_start=period)
            assert shown.snapshot.rating_list.slug == "the-list"  # read with it
        assert shown.snapshot == newest


def test_no_publication_or_no_active_list_shows_none(published):
    _rating_list, snapshots, period, _count = published
    newest = asked_date(QueryDict(""))
    assert shown_list(snapshots, slug="no-such-list", asked=newest, period_start=period).snapshot is None
    RatingList.objects.filter(slug="the-list").update(is_active=False)
    assert shown_list(snapshots, slug="the-list", asked=newest, period_start=period).snapshot is None
    RatingList.objects.filter(slug="the-list").update(is_active=True)
    RatingSnapshot.objects.all().delete()
    assert shown_list(snapshots, slug="the-list", asked=newest, period_start=period).snapshot is None


def test_a_gorbunov_publication_knows_whether_it_is_the_newest(db):
    rating_list = RatingList.objects.create(slug="weekly", name="Список", engine=Engine.GORBUNOV)
    for day in (0, 7, 21):
        RatingSnapshot.objects.create(rating_list=rating_list, as_of=MONDAY + datetime.timedelta(days=day))
    other = RatingList.objects.create(slug="other", name="Другой", engine=Engine.GORBUNOV)
    RatingSnapshot.objects.create(rating_list=other, as_of=MONDAY + datetime.timedelta(days=70))
    shown = gorbunov.shown_list_snapshots(slug="weekly").order_by("as_of")
    assert [snapshot.newest for snapshot in shown] == [False, False, True]
