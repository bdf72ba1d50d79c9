"""The shared rating lists: every engine's list has a public page, named by the home of its engine."""

import datetime

import pytest
from django.urls import resolve
from django.utils import translation

from ratings.models import Engine, RatingList, RatingSnapshot

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("engine", Engine.values)
def test_every_engines_list_has_its_page(client, engine):
    rating_list = RatingList.objects.create(slug=f"list-{engine}", name=engine, engine=engine)
    url = rating_list.get_absolute_url()
    assert resolve(url).url_name != "home", f"no home names the page of {engine} lists"
    assert client.get(url).status_code in (200, 404)  # a list page may 404 an inactive or empty slug, never a 500


def test_a_snapshot_links_to_its_date(db):
    rating_list = RatingList.objects.get(slug="gorbunov")
    snapshot = RatingSnapshot.objects.create(rating_list=rating_list, as_of=datetime.date(2026, 3, 9))
    with translation.override("ru"):
        assert snapshot.get_absolute_url() == "/ratings/cards/gorbunov/?date=2026-03-09"
