"""The DIRS leaderboard and the preferans leaderboard written from plain values (their tables'
``lean_cells``) are the same pages as when every cell goes through the tables' ``render_*`` methods: rows, links,
numbers, changes, empty cells and defaults, in both languages, sorted and filtered, on a later page too."""

import pytest

from ratings.dirs.models import DirsRating
from ratings.dirs.tables import DirsLeaderboardTable
from ratings.preferans.models import League, PreferansRating
from ratings.preferans.tables import LeaderboardTable
from tests.factories import ClubFactory, PlayerFactory
from tests.ratings.lean_pages import both_pages

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
@pytest.mark.parametrize(
    "query", [{}, {"sort": "name"}, {"sort": "rating"}, {"q": "Latin"}, {"per_page": 5, "page": 2}]
)
def test_the_dirs_leaderboard_is_the_same_page(client, monkeypatch, prefix, query):
    club = ClubFactory(name="Го-клуб")
    for n, player in enumerate(_people(14)):
        DirsRating.objects.create(
            player=player,
            rating=[5, 150, 150, 240][n % 4] + n,
            acceleration=n % 3,
            initial_rating=100,
            declared_rank="10k",
            games=n,
            club=club if n % 2 else None,
        )
    lean, generic = both_pages(client, monkeypatch, DirsLeaderboardTable, f"{prefix}/go/dirs/", query)
    assert lean == generic
    assert lean.count('<tr class="') >= 5


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize(
    "query",
    [{}, {"league": "pro"}, {"sort": "player"}, {"sort": "-max_rating"}, {"per_page": 5, "page": 2}],
)
def test_the_preferans_leaderboard_is_the_same_page(client, monkeypatch, prefix, query):
    for n, player in enumerate(_people(14)):
        rating = 1000 + 37.125 * n
        PreferansRating.objects.create(
            player=player,
            rating=rating,
            max_rating=rating + n % 3,
            league=League.PRO if n % 3 == 0 else League.AMATEUR,
            deals=n * 7,
        )
    lean, generic = both_pages(client, monkeypatch, LeaderboardTable, f"{prefix}/preferans/", query)
    assert lean == generic
    assert lean.count('<tr class="') >= 4  # 9 amateurs: the second page of 5 has 4
