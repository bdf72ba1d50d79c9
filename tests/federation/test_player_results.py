"""A player's "Tournaments and places" on their page: a django-tables2 table (``federation.tables.PlayerResultTable``)
of their results in approved tournaments, newest first, sortable by every column but "of" (the discipline by its
name in the reader's language), in pages."""

import datetime
import re

import pytest

from tests.factories import PlayerFactory, ResultFactory, TournamentFactory
from tournaments.models import Discipline, TournamentStatus

pytestmark = pytest.mark.django_db

CITIES = ["Москва", "", "Казань", "Омск <&>", "Тверь", "Пермь", "Абакан"]
DISCIPLINES = [Discipline.CARD_GAMES, Discipline.MAHJONG, Discipline.GO, Discipline.PREFERANS]


@pytest.fixture
def player():
    """Seven results, no two alike in any column the table sorts by, one tournament without a city, one with markup in
    its name and city, and a draft that is not shown. Tournament n ends on day 37 * (3n mod 7), the player is
    (4n mod 7) + 1st of 1 + (n mod 4) participants."""
    player = PlayerFactory()
    others = PlayerFactory.create_batch(3)
    for n, city in enumerate(CITIES):
        day = datetime.date(2025, 1, 1) + datetime.timedelta(days=37 * ((n * 3) % 7))
        tournament = TournamentFactory(
            name=f"Кубок {'<b>' if n == 3 else ''}{chr(ord('А') + (n * 5) % 7)}",
            start_date=day,
            end_date=day,
            city=city,
            discipline=DISCIPLINES[n % 4],
        )
        ResultFactory(tournament=tournament, player=player, place=(n * 4) % 7 + 1)
        for other in others[: n % 4]:
            ResultFactory(tournament=tournament, player=other, place=20 + others.index(other))
    ResultFactory(tournament__status=TournamentStatus.DRAFT, player=player, place=1, tournament__name="Черновик")
    return player


def _table(client, url: str, **params) -> str:
    text = client.get(url, params).content.decode()
    return text.split("Турниры и места" if not url.startswith("/en/") else "Tournaments and places")[1]


def _rows(table: str) -> list[list[str]]:
    """The cells' texts of each row of the table."""
    body = table.split("<tbody>")[1].split("</tbody>")[0]
    return [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_results_newest_first_with_their_links_places_and_participants(client, player):
    table = _table(client, f"/players/{player.pk}/")
    rows = _rows(table)
    assert rows == [
        ["11.08.2025", "Кубок Г", "2", "3", "Го", "Казань"],
        ["05.07.2025", "Кубок Ж", "3", "1", "Коллекционные карточные игры", "Тверь"],
        ["29.05.2025", "Кубок В", "4", "3", "Го", "Абакан"],
        ["22.04.2025", "Кубок Е", "5", "2", "Риичи-маджонг", "—"],
        ["16.03.2025", "Кубок &lt;b&gt;Б", "6", "4", "Преферанс", "Омск &lt;&amp;&gt;"],
        ["07.02.2025", "Кубок Д", "7", "2", "Риичи-маджонг", "Пермь"],
        ["01.01.2025", "Кубок А", "1", "1", "Коллекционные карточные игры", "Москва"],
    ]
    assert "Черновик" not in table
    for result in player.results.filter(tournament__status=TournamentStatus.APPROVED):
        assert f'<a href="/tournaments/{result.tournament_id}/">' in table
    assert 'class="desc orderable"' in table  # the date column, sorted newest first
    assert "?sort=date" in table


def test_cells_in_english(client, player):
    rows = _rows(_table(client, f"/en/players/{player.pk}/"))
    # The tournament and the city in Latin letters (no English name typed: the passport transliteration).
    assert rows[-1] == ["1 Jan 2025", "Kubok A", "1", "1", "Collectible card games", "Moskva"]


@pytest.mark.parametrize(("sort", "column", "reverse"), [("place", 2, False), ("-place", 2, True)])
def test_results_sort_by_place(client, player, sort, column, reverse):
    rows = _rows(_table(client, f"/players/{player.pk}/", sort=sort))
    places = [int(row[column]) for row in rows]
    assert places == sorted(places, reverse=reverse) == ([7, 6, 5, 4, 3, 2, 1] if reverse else [1, 2, 3, 4, 5, 6, 7])


def test_results_sort_by_tournament_and_city(client, player):
    names = [row[1] for row in _rows(_table(client, f"/players/{player.pk}/", sort="-tournament"))]
    assert names == sorted(names, reverse=True)
    cities = [row[5] for row in _rows(_table(client, f"/players/{player.pk}/", sort="city"))]
    assert cities == ["—", "Абакан", "Казань", "Москва", "Омск &lt;&amp;&gt;", "Пермь", "Тверь"]


@pytest.mark.parametrize(
    ("prefix", "order"),
    [
        ("", ["Го", "Коллекционные карточные игры", "Преферанс", "Риичи-маджонг"]),
        ("/en", ["Collectible card games", "Go", "Preferans", "Riichi mahjong"]),
    ],
)
def test_results_sort_by_the_name_of_the_discipline_in_the_readers_language(client, player, prefix, order):
    table = _table(client, f"{prefix}/players/{player.pk}/", sort="discipline")
    disciplines = [row[4] for row in _rows(table)]
    assert len(disciplines) == 7
    assert set(disciplines) == set(order)
    assert disciplines == sorted(disciplines, key=order.index)
    assert 'class="asc d-md-table-cell d-none orderable"' in table
    assert "?sort=-discipline" in table


def test_results_of_the_same_place_follow_newest_first(client):
    """Ties in the sorted column keep the newest first, so that paging never repeats or skips a row."""
    player = PlayerFactory()
    for day in (3, 1, 2):
        ResultFactory(player=player, place=1, tournament__start_date=datetime.date(2025, 5, day))
    for sort in ("place", "-place"):
        rows = _rows(_table(client, f"/players/{player.pk}/", sort=sort))
        assert [row[0] for row in rows] == ["03.05.2025", "02.05.2025", "01.05.2025"]


@pytest.mark.parametrize(
    ("params", "shown"),
    [
        ({"per_page": 3, "page": 2}, ["22.04.2025", "29.05.2025", "05.07.2025"]),
        ({"per_page": 3, "page": 3}, ["11.08.2025"]),
        ({"per_page": 3, "page": 99}, ["11.08.2025"]),  # past the last page: the last
        ({"per_page": 3, "page": "abc"}, ["01.01.2025", "07.02.2025", "16.03.2025"]),  # not a number: the first
    ],
)
def test_results_in_pages(client, player, params, shown):
    table = _table(client, f"/players/{player.pk}/", sort="date", **params)
    assert [row[0] for row in _rows(table)] == shown
    assert "?page=1&amp;per_page=3&amp;sort=date" in table  # the page links keep the size and the order


def test_a_player_without_results_says_so(client):
    player = PlayerFactory()
    ResultFactory(tournament__status=TournamentStatus.DRAFT, player=player)
    text = client.get(f"/players/{player.pk}/").content.decode()
    assert "Результатов в утверждённых турнирах пока нет." in text
    assert "<table" not in text.split("Турниры и места")[1]


@pytest.mark.parametrize("results", [3, 40])
def test_the_page_reads_its_results_in_a_bounded_number_of_queries(client, results, django_assert_max_num_queries):
    """The profile, the results' count and one page of them: the same bound for 3 results and for 40 (no query per
    row)."""
    player = PlayerFactory()
    for n in range(results):
        ResultFactory(player=player, place=n + 1)
    with django_assert_max_num_queries(15):  # 10 today, the sections included
        text = client.get(f"/players/{player.pk}/").content.decode()
    assert len(_rows(text.split("Турниры и места")[1])) == results
