"""The one rule for the date a list page is asked for (``ratings.dates``), on its own; the pages' tests show it
on the Gorbunov and the mahjong pages."""

import datetime

import pytest
from django.utils import translation

from ratings.dates import AskedDate, asked_date, list_for_date
from ratings.engines.gorbunov import week_start
from ratings.models import Engine, RatingList, RatingSnapshot


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("query", "day"),
    [
        ({}, None),
        ({"date": " 2026-03-19 "}, datetime.date(2026, 3, 19)),
        ({"week": "2026-W12"}, datetime.date(2026, 3, 16)),
        ({"week": "2026-W1"}, datetime.date(2025, 12, 29)),
        ({"week": "2026-W12", "date": "2020-01-01"}, datetime.date(2026, 3, 16)),  # the week wins
        ({"date": ""}, None),
    ],
)
def test_what_is_asked(query, day):
    assert asked_date(query) == AskedDate(day)


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ({"date": "2026-02-30"}, "“2026-02-30” is not a date (YYYY-MM-DD)."),
        ({"date": "2026-3-9"}, "“2026-3-9” is not a date (YYYY-MM-DD)."),
        ({"date": "20260309"}, "“20260309” is not a date (YYYY-MM-DD)."),
        ({"week": "2026-W54"}, "“2026-W54” is not a rating week (YYYY-Www, e.g. 2026-W10)."),
        ({"week": "2026-W00"}, "“2026-W00” is not a rating week (YYYY-Www, e.g. 2026-W10)."),
        ({"week": "garbage", "date": "2026-03-09"}, "“garbage” is not a rating week (YYYY-Www, e.g. 2026-W10)."),
    ],
)
def test_what_cannot_be_read_is_said(query, error):
    assert asked_date(query) == AskedDate(None, error)


@pytest.fixture
def weekly(db):
    rating_list = RatingList.objects.create(slug="weekly", name="w", engine=Engine.GORBUNOV)
    for day in (datetime.date(2026, 3, 9), datetime.date(2026, 3, 16), datetime.date(2026, 3, 30)):
        RatingSnapshot.objects.create(rating_list=rating_list, as_of=day)
    return rating_list.snapshots.all()


def _shown(snapshots, query, **kwargs):
    shown = list_for_date(snapshots, asked_date(query), **kwargs)
    return (shown.snapshot.as_of if shown.snapshot else None), shown.message


def test_the_list_shown_and_what_is_said(weekly, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):
        assert _shown(weekly, {}) == (datetime.date(2026, 3, 30), "")
    assert _shown(weekly, {"date": "2026-03-18"}, period_start=week_start) == (datetime.date(2026, 3, 16), "")
    assert _shown(weekly, {"date": "2026-03-18"}) == (
        datetime.date(2026, 3, 16),
        "No list is dated 18 Mar 2026: the list in force on that date, of 16 Mar 2026, is shown.",
    )
    assert _shown(weekly, {"week": "2026-W13"}, period_start=week_start) == (
        datetime.date(2026, 3, 16),
        "No list is dated 23 Mar 2026: the list in force on that date, of 16 Mar 2026, is shown.",
    )
    assert _shown(weekly, {"week": "nope"}) == (
        datetime.date(2026, 3, 30),
        "“nope” is not a rating week (YYYY-Www, e.g. 2026-W10). The newest list, of 30 Mar 2026, is shown.",
    )
    with django_assert_max_num_queries(2):
        assert _shown(weekly, {"date": "0001-01-01"}, period_start=week_start) == (
            datetime.date(2026, 3, 9),
            "There was no list yet on 1 Jan 0001: the first one, of 9 Mar 2026, is shown.",
        )


def test_a_list_with_no_snapshot(db):
    rating_list = RatingList.objects.create(slug="empty", name="e", engine=Engine.GORBUNOV)
    assert _shown(rating_list.snapshots.all(), {}) == (None, "")
    assert _shown(rating_list.snapshots.all(), {"date": "2026-03-09"}) == (None, "No list has been computed yet.")
    assert _shown(rating_list.snapshots.all(), {"date": "x"}) == (
        None,
        "“x” is not a date (YYYY-MM-DD). No list has been computed yet.",
    )
