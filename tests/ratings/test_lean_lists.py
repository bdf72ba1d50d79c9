"""The mahjong list written from plain values (its table's ``lean_cells``) is the same page as when every cell goes
through the table's ``render_*`` methods: rows, links, numbers, changes, empty cells and defaults, in both languages,
sorted and filtered, on a later page too."""

import datetime

import pytest

from ratings.mahjong import services as mahjong
from ratings.mahjong.tables import MahjongEntryTable
from tests.factories import ClubFactory, PlayerFactory
from tests.ratings.lean_pages import both_pages
from tests.ratings.mahjong.factories import mahjong_tournament

pytestmark = pytest.mark.django_db

PREFIXES = ["", "/en"]


def _people(n: int) -> list:
    """Players with and without a Latin name, a city and a club."""
    club = ClubFactory(name="Дракон", city="Казань")
    return [
        PlayerFactory(
            city=["Казань", "Москва", ""][i % 3],
            club=club if i % 2 else None,
            last_name_latin="" if i % 4 == 0 else f"Latin{i}",
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("query", [{}, {"sort": "name"}, {"sort": "-rating"}, {"city": "Москва"}, {"per_page": 5}])
def test_the_mahjong_list_is_the_same_page(client, monkeypatch, prefix, query):
    mahjong.mahjong_setup_defaults()
    players = _people(16)
    for t in range(3):
        mahjong_tournament(
            players=players[t:] + players[:t], end=datetime.date(2025, 1, 1) + datetime.timedelta(20 * t)
        )
    mahjong.mahjong_daily(today=datetime.date(2025, 6, 1))
    url = f"{prefix}/ratings/mahjong/mahjong-rr/"
    lean, generic = both_pages(client, monkeypatch, MahjongEntryTable, url, query)
    assert lean == generic
    assert lean.count('<tr class="') >= 5
