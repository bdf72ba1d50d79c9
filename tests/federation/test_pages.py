"""The public pages in both languages: content, filters, 404s, and a number of queries that does not grow with rows."""

import datetime

import pytest
from django.core.cache import caches

from tests.factories import ClubFactory, PlayerFactory, ResultFactory, TournamentFactory
from tournaments.models import Discipline, TournamentStatus

pytestmark = pytest.mark.django_db


def _field(n_players, n_tournaments=3):
    club = ClubFactory(name="Дракон", city="Казань")
    players = [
        PlayerFactory(city="Казань" if i % 2 else "Москва", club=club if i % 3 == 0 else None) for i in range(n_players)
    ]
    for t in range(n_tournaments):
        tournament = TournamentFactory(start_date=datetime.date(2025, 1, 1) + datetime.timedelta(days=7 * t))
        for place, player in enumerate(players, start=1):
            ResultFactory(tournament=tournament, player=player, place=place)
    return players


def test_home_in_russian_by_default_and_in_english(client):
    TournamentFactory(name="Кубок весны", discipline=Discipline.MAHJONG, k=None)
    ru = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert ru.status_code == 200
    text = ru.content.decode()
    assert '<html lang="ru">' in text
    assert "Последние турниры" in text
    assert "Кубок весны" in text
    assert "Риичи-маджонг" in text
    for address in ("/ratings/cards/", "/ratings/mahjong/", "/go/", "/preferans/"):
        assert f'href="{address}"' in text
    en = client.get("/en/").content.decode()
    assert '<html lang="en">' in en
    assert "Latest tournaments" in en
    assert "Riichi mahjong" in en


def test_language_switch_keeps_the_page_and_the_query(client):
    player = PlayerFactory()
    text = client.get(f"/players/{player.pk}/").content.decode()
    assert f'href="/en/players/{player.pk}/" lang="en"' in text
    text = client.get("/en/players/", {"city": "Москва"}).content.decode()
    assert 'href="/players/?city=%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0" lang="ru"' in text


def test_players_list_search_in_either_alphabet(client):
    PlayerFactory(last_name="Ёлкин", first_name="Пётр", last_name_latin="Elkin", first_name_latin="Petr")
    PlayerFactory(last_name="Сидорова", first_name="Анна", last_name_latin="Sidorova", first_name_latin="Anna")
    for query in ["елкин", "ЁЛКИН петр", "Elkin", "elkin pet"]:
        text = client.get("/players/", {"q": query}).content.decode()
        assert "Ёлкин" in text, query
        assert "Сидорова" not in text, query
    english = client.get("/en/players/", {"q": "Сидорова"}).content.decode()
    assert "Sidorova Anna" in english


def test_players_list_filters_sort_and_pages(client):
    _field(60, n_tournaments=1)
    kazan = client.get("/players/", {"city": "Казань"}).content.decode()
    assert "30 игроков" in kazan or "30 игрок" in kazan
    club = client.get(
        "/players/", {"club": PlayerFactory._meta.model.objects.filter(club__isnull=False).first().club_id}
    )
    assert club.status_code == 200
    assert "Дракон" in club.content.decode()
    page2 = client.get("/players/", {"page": 2, "sort": "-name"})
    assert page2.status_code == 200
    assert 'class="pagination' in page2.content.decode()
    bad = client.get("/players/", {"page": "abc", "club": "not-a-number", "sort": "nonsense"})
    assert bad.status_code == 200


def test_players_csv_matches_the_filter(client):
    _field(12, n_tournaments=1)
    content = client.get("/players/", {"city": "Москва", "_export": "csv"}).content
    assert content.startswith(b"\xef\xbb\xbf")  # the BOM a Russian Excel needs to read UTF-8
    rows = content.decode("utf-8-sig").strip().splitlines()
    assert len(rows) == 1 + 6
    assert rows[0].startswith("ID игрока;")  # the Russian page's CSV is separated by ";"
    assert all(";Москва;" in row for row in rows[1:])


def test_player_page_lists_tournaments_and_places(client):
    players = _field(6, n_tournaments=2)
    player = players[2]
    text = client.get(f"/players/{player.pk}/").content.decode()
    assert player.last_name in text
    assert "Турниры и места" in text
    assert text.count(">3<") >= 2  # third place in both tournaments
    assert "Tournaments and places" in client.get(f"/en/players/{player.pk}/").content.decode()


def test_draft_tournaments_are_not_public(client):
    draft = TournamentFactory(name="Черновик", status=TournamentStatus.DRAFT)
    player = PlayerFactory()
    ResultFactory(tournament=draft, player=player, place=1)
    assert client.get(f"/tournaments/{draft.pk}/").status_code == 404
    assert "Черновик" not in client.get("/tournaments/").content.decode()
    assert "Черновик" not in client.get(f"/players/{player.pk}/").content.decode()


def test_tournaments_by_discipline_and_year(client):
    TournamentFactory(name="Маджонг-2025", discipline=Discipline.MAHJONG, start_date=datetime.date(2025, 5, 1))
    TournamentFactory(name="Берсерк-2024", discipline=Discipline.CARD_GAMES, start_date=datetime.date(2024, 5, 1))
    text = client.get("/tournaments/", {"discipline": "mahjong"}).content.decode()
    assert "Маджонг-2025" in text
    assert "Берсерк-2024" not in text
    text = client.get("/tournaments/", {"year": "2024"}).content.decode()
    assert "Берсерк-2024" in text
    assert "Маджонг-2025" not in text
    assert client.get("/tournaments/", {"year": "not-a-year", "discipline": "chess"}).status_code == 200


def test_tournament_page_shows_results(client):
    tournament = TournamentFactory(name="Кубок клубов", k=4, card_format="sealed")
    for place in range(1, 4):
        ResultFactory(tournament=tournament, place=place)
    text = client.get(tournament.get_absolute_url()).content.decode()
    assert "Кубок клубов" in text
    assert "Коэффициент K" in text
    assert "Results" in client.get("/en" + tournament.get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("/players/999999/", "Страница не найдена"),
        ("/en/players/999999/", "Page not found"),
        ("/tournaments/999999/", "Страница не найдена"),
        ("/en/tournaments/999999/", "Page not found"),
        ("/en/no-such-page/", "Page not found"),
        ("/players/abc/", "Страница не найдена"),
    ],
)
def test_missing_pages_are_404_in_the_visitors_language(client, url, words):
    response = client.get(url)
    assert response.status_code == 404
    assert words in response.content.decode()


#: Each page and download, and the most queries it may take: the same bound with 3 rows and with 40 proves there is
#: no query per row (a forgotten select_related in a selector, a column read through a relation).
BOUNDS = {
    "/": 6,
    "/players/": 7,
    "/players/?_export=csv": 4,
    "/players/?_export=xlsx": 4,
    "/en/players/?q=ivanov&city=Москва&sort=-tournament_count": 7,
    "/tournaments/": 5,
    "/tournaments/?_export=csv": 4,
    "/tournaments/?_export=xlsx": 4,
    "/en/tournaments/?discipline=mahjong&year=2026&sort=-result_count": 5,
    # The sections of the disciplines included; one query each reads the English names of cities (then cached).
    "{tournament}": 14,
    "{tournament}?_export=csv": 5,
    "{tournament}?_export=xlsx": 5,
    "{player}": 16,  # the sections of the disciplines included; mahjong reads its tournaments to explain (issue 29)
}


@pytest.mark.parametrize("rows", [3, 40])
@pytest.mark.parametrize("url", list(BOUNDS))
def test_pages_and_downloads_in_a_bounded_number_of_queries(client, rows, url, django_assert_max_num_queries):
    club = ClubFactory(name="Дракон", city="Казань")
    tournament = TournamentFactory(discipline=Discipline.MAHJONG)
    busy = PlayerFactory(club=club)  # in every tournament
    for n in range(rows):
        player = PlayerFactory(city="Казань" if n % 2 else "Москва", club=club if n % 3 == 0 else None)
        ResultFactory(tournament=tournament, player=player, place=n + 1, hanchans_played=8)
        ResultFactory(player=busy, tournament__start_date=datetime.date(2026, 1, 1) + datetime.timedelta(days=n))
    address = url.format(tournament=tournament.get_absolute_url(), player=busy.get_absolute_url())
    caches["default"].clear()  # a cold render: no cached page, the identity read as on a first visit
    with django_assert_max_num_queries(BOUNDS[url]):
        response = client.get(address)
    assert response.status_code == 200
    if "_export" not in url and "?" not in url and url != "/":
        assert response.content.decode().count("<tr") >= min(rows, 50)


@pytest.mark.parametrize("url", ["/players/", "/tournaments/", "/en/players/"])
def test_an_unknown_export_format_shows_the_page(client, url):
    TournamentFactory()
    response = client.get(url, {"_export": "xls"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
