"""The Gorbunov list written from plain values (``ListTable.lean_cells``) is the same page as when every cell goes
through the table's ``render_*`` methods: every row, link, number, empty cell and "new" mark, in both languages,
sorted, filtered and on an older week."""

import datetime

import pytest

from ratings.gorbunov import services
from ratings.gorbunov.tables import ListTable
from tests.factories import PlayerFactory
from tests.ratings.gorbunov.conftest import make_tournament, week
from tests.ratings.lean_pages import both_pages

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(gorbunov_list, season, field):
    # A newcomer of the last week without a city or a club, and a Latin name for the English page.
    newcomer = PlayerFactory(last_name="Новиков", last_name_latin="Novikov", first_name_latin="", city="", club=None)
    make_tournament([newcomer, *field[:7]], week(5) + datetime.timedelta(days=3))
    for n in range(1, 7):
        services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(n))
    return gorbunov_list


@pytest.mark.parametrize("prefix", ["", "/en"])
@pytest.mark.parametrize(
    "query",
    [
        {},
        {"sort": "name"},
        {"sort": "-rating"},
        {"city": "Казань"},
        {"week": "2026-W12", "city": "Москва"},
        {"week": "2026-W12"},
        {"week": "2026-W13", "per_page": 3, "page": 2},
    ],
)
def test_the_gorbunov_list_is_the_same_page(client, monkeypatch, published, prefix, query):
    lean, generic = both_pages(client, monkeypatch, ListTable, f"{prefix}/ratings/cards/gorbunov/", query)
    assert lean == generic
    assert lean.count('<tr class="') >= int(query.get("per_page", 5))
