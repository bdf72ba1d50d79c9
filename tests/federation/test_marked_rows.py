"""``federation.db.marked_rows`` (issue 16): a statement compiled once with stand-ins where a page's values go gives
the rows the ORM gives for every value, converted as the ORM converts them, cut by the limit and offset asked."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation import db
from federation.db import marked_rows
from federation.models import Player
from ratings.models import RatingList, RatingSnapshot
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _snapshots(slug, day):
    return (
        RatingSnapshot.objects.filter(rating_list__slug=slug, as_of__lte=day)
        .order_by("-as_of")
        .values_list("id", "as_of", "rating_list__params")
    )


@pytest.fixture
def snapshots():
    lists = [
        RatingList.objects.create(slug=slug, name=slug, engine="gorbunov", params={"weeks": n})
        for n, slug in enumerate(["a-list", "b-list"])
    ]
    for rating_list in lists:
        for n in range(5):
            RatingSnapshot.objects.create(
                rating_list=rating_list, as_of=datetime.date(2026, 1, 5) + datetime.timedelta(days=7 * n)
            )
    return lists


def test_the_rows_are_the_orms_for_every_value_and_page(snapshots):
    days = [datetime.date(2026, 1, 1), datetime.date(2026, 1, 20), datetime.date.max]
    for slug in ["a-list", "b-list", "none"]:
        for day in days:
            expected = list(_snapshots(slug, day))
            assert marked_rows(("test_snapshots",), _snapshots, values={"slug": slug, "day": day}) == expected
            for offset, limit in [(0, 1), (1, 2), (4, 3)]:
                got = marked_rows(
                    ("test_snapshots",), _snapshots, values={"slug": slug, "day": day}, limit=limit, offset=offset
                )
                assert got == expected[offset : offset + limit]
    assert {params["weeks"] for _pk, _day, params in _snapshots("b-list", datetime.date.max)} == {1}  # JSON read


def test_one_statement_text_for_every_value(postgres):
    players = PlayerFactory.create_batch(3)
    with CaptureQueriesContext(connection) as captured:
        for player in players:
            rows = marked_rows(
                ("test_player",), lambda pk: Player.objects.filter(pk=pk).values_list("pk"), values={"pk": player.pk}
            )
            assert rows == [(player.pk,)]
    assert len({query["sql"] for query in captured.captured_queries}) == 1


def test_a_value_that_is_not_a_parameter_is_refused(postgres):
    with pytest.raises(ValueError, match="not among the statement's parameters"):
        marked_rows(("test_unused",), lambda pk: RatingList.objects.values_list("pk"), values={"pk": 1})
    with pytest.raises(TypeError):
        marked_rows(("test_float",), lambda pk: RatingList.objects.filter(pk=pk), values={"pk": 1.5})


def test_the_statements_kept_are_bounded(postgres, monkeypatch):
    monkeypatch.setattr(db, "MARKED_MAX", 3)
    monkeypatch.setattr(db, "_MARKED", {})
    for n in range(7):
        marked_rows(
            ("test_bounded", n), lambda pk: RatingList.objects.filter(pk=pk).values_list("pk"), values={"pk": n}
        )
    assert len(db._MARKED) <= 3
