"""The mahjong pages in both languages: content, filters, CSV, dates, the tournaments counted, the player's breakdown
(equal to the snapshot), the sections of the shared pages, the calculator; a number of queries that does not grow."""

import datetime

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.formatting import plain_explanation
from ratings.mahjong import services
from ratings.models import RatingEntry, RatingSnapshot
from tests.factories import PlayerFactory
from tests.ratings.mahjong.factories import mahjong_tournament

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2025, 6, 1)


def _queries(client, url):
    caches["default"].clear()  # a cold render: no cached page, the identity read as on a first visit
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries), response.content.decode()


def _league(n_players=16, n_tournaments=3):
    services.mahjong_setup_defaults()
    players = [PlayerFactory(city="Казань" if i % 2 else "Москва") for i in range(n_players)]
    for t in range(n_tournaments):
        order = players[t:] + players[:t]
        mahjong_tournament(players=order, end=datetime.date(2025, 1, 1) + datetime.timedelta(days=20 * t))
    services.mahjong_daily(today=TODAY)
    return players


@pytest.fixture
def sections(settings):
    settings.PLAYER_PAGE_SECTIONS = ["ratings.mahjong.sections.player_section"]
    settings.TOURNAMENT_PAGE_SECTIONS = ["ratings.mahjong.sections.tournament_section"]


def test_index_and_list_in_both_languages_with_bounded_queries(client):
    players = _league(16)
    small, text = _queries(client, "/en/ratings/mahjong/mahjong-rr/")
    assert "RR rating" in text
    assert players[0].full_name_latin in text
    assert "2025-06-01" in text
    _league(60)
    big, text_ru = _queries(client, "/ratings/mahjong/mahjong-rr/")
    assert big <= small + 1
    assert big <= 12
    assert "Рейтинг RR" in text_ru
    q, text = _queries(client, "/en/ratings/mahjong/")
    assert q <= 10
    assert "mahjong-crr" in text


def test_list_search_filter_sort_and_csv(client):
    players = _league(16)
    target = players[3]
    _, text = _queries(client, f"/en/ratings/mahjong/mahjong-rr/?q={target.last_name_latin}")
    assert target.full_name_latin in text
    assert players[4].full_name_latin not in text
    _, text = _queries(client, "/ratings/mahjong/mahjong-rr/?city=Казань&sort=-rating")
    assert players[1].full_name in text
    assert players[0].full_name not in text
    response = client.get("/en/ratings/mahjong/mahjong-rr/?city=Казань&_export=csv")
    body = response.content.decode("utf-8-sig")
    assert response["Content-Type"].startswith("text/csv")
    assert body.splitlines()[0].startswith("Rank,Player id,Player,Rating,Change,Tournaments,City")
    assert len(body.strip().splitlines()) == 1 + 8


def test_list_as_of_a_date_and_the_dates_page(client):
    _league(16)
    services.mahjong_daily(today=datetime.date(2025, 1, 25))  # only the 1st and 2nd tournaments
    _, text = _queries(client, "/en/ratings/mahjong/mahjong-rr/?date=2025-02-01")
    assert "as of 25 Jan 2025" in text
    _, text = _queries(client, "/en/ratings/mahjong/mahjong-rr/dates/")
    assert "25 Jan 2025" in text
    assert "1 Jun 2025" in text
    _, text = _queries(client, "/en/ratings/mahjong/mahjong-rr/?date=yesterday")
    assert "is not a date" in text
    _, text = _queries(client, "/en/ratings/mahjong/mahjong-rr/?date=2000-01-01")
    assert "There was no list yet on 1 Jan 2000: the first one, of 25 Jan 2025, is shown." in text
    assert client.get("/en/ratings/mahjong/no-such-list/").status_code == 404


@pytest.mark.parametrize("page", ["", "tournaments/"])
def test_one_date_rule_on_the_list_pages(client, page):
    """A bad date or week shows the newest list saying what was wrong; a date between lists, the list in force
    then, saying so; a date before the first list, the first list, saying so."""
    _league(16)
    services.mahjong_daily(today=datetime.date(2025, 1, 25))
    url = f"/en/ratings/mahjong/mahjong-rr/{page}"
    _, text = _queries(client, url + "?date=2025-02-30")
    assert "“2025-02-30” is not a date (YYYY-MM-DD). The newest list, of 1 Jun 2025, is shown." in text
    _, text = _queries(client, url + "?week=2025-W77")
    assert "“2025-W77” is not a rating week (YYYY-Www, e.g. 2026-W10). The newest list, of 1 Jun 2025" in text
    _, text = _queries(client, url + "?date=2025-03-01")
    assert "No list is dated 1 Mar 2025: the list in force on that date, of 25 Jan 2025, is shown." in text
    _, text = _queries(client, url + "?week=2025-W10")  # Monday 2025-03-03
    assert "No list is dated 3 Mar 2025: the list in force on that date, of 25 Jan 2025, is shown." in text
    _, text = _queries(client, url + "?date=2025-06-01")
    assert 'id="date-message"' not in text
    _, text = _queries(client, url + "?date=2024-12-31")
    assert "There was no list yet on 31 Dec 2024: the first one, of 25 Jan 2025, is shown." in text
    _, text_ru = _queries(client, f"/ratings/mahjong/mahjong-rr/{page}?date=2025-03-01")
    assert "Списка от 01.03.2025 нет: показан список, действовавший в этот день, — от 25.01.2025." in text_ru


def test_a_bad_date_on_the_player_page_shows_the_newest_lists(client):
    players = _league(16)
    _, text = _queries(client, f"/en/ratings/mahjong/players/{players[0].pk}/?date=tomorrow")
    assert "“tomorrow” is not a date (YYYY-MM-DD). The newest lists are shown." in text
    assert "1 Jun 2025" in text


def test_tournaments_counted_with_w_a_and_maxk(client):
    _league(16, n_tournaments=6)
    q, text = _queries(client, "/en/ratings/mahjong/mahjong-rr/tournaments/?date=2025-06-01")
    assert q <= 8
    assert text.count('class="table-warning"') == 4
    # The rules' variable name is not shown: a player reads what it is.
    assert "MAXK" not in text
    assert text.count('<span class="badge text-bg-warning">largest W·A</span>') == 4
    assert "part B of every rating is divided by their sum" in text
    assert "2.00" in text  # W = 0.40 + 1.60
    mahjong_tournament(n=15, end=datetime.date(2025, 5, 1), name="Малый турнир")
    services.mahjong_daily(today=datetime.date(2025, 6, 2))
    _, text_ru = _queries(client, "/ratings/mahjong/mahjong-rr/tournaments/")
    assert "Малый турнир</a>: меньше 16 игроков" in text_ru
    assert "MAXK" not in text_ru
    assert "наибольшее W·A" in text_ru


def test_player_page_breakdown_equals_the_snapshot(client, sections):
    players = _league(16, n_tournaments=6)
    player = players[5]
    entry = RatingEntry.objects.get(snapshot__rating_list__slug="mahjong-rr", player=player)
    q, text = _queries(client, f"/en/ratings/mahjong/players/{player.pk}/")
    assert q <= 14
    assert f"{entry.rating:.2f}" in text
    for score in entry.details["scores"]:
        assert f"{score['delta']:.2f}" in text
        assert f"{score['w']:.2f}" in text
        assert f"{score['r']:.2f}" in text
    # Each line of the stored formula, as a player reads it (no "MAXK": federation.formatting.plain_explanation).
    for line in entry.details["formula"]["en"]:
        assert plain_explanation(line, "en") in text
    assert "MAXK" not in text
    in_a = sum(score["in_a"] for score in entry.details["scores"])
    assert in_a == entry.details["k"] == 6  # 6 tournaments: 5 + ceil(0.8 * 1)
    assert 'id="mahjong-chart"' in text
    # In Russian: the same numbers, the Russian formula.
    _, text_ru = _queries(client, f"/ratings/mahjong/players/{player.pk}/")
    for line in entry.details["formula"]["ru"]:
        assert plain_explanation(line, "ru") in text_ru
    # The shared player page shows the section.
    _q_section, text = _queries(client, f"/en/players/{player.pk}/")
    assert "Riichi mahjong ratings" in text
    assert f"{entry.rating:.2f}" in text
    # More snapshots do not add queries.
    services.mahjong_daily(today=datetime.date(2026, 1, 2))
    q_more, _ = _queries(client, f"/en/ratings/mahjong/players/{player.pk}/")
    assert q_more == q


def test_tournament_page_says_why_it_does_not_count(client, sections):
    services.mahjong_setup_defaults()
    t = mahjong_tournament(n=16, hanchans=3, end=TODAY)
    q, text = _queries(client, f"/en/tournaments/{t.pk}/")
    assert "not counted in RR rating: fewer than 4 hanchans" in text
    assert "counted in CRR rating" in text
    assert q <= 20
    _, text_ru = _queries(client, f"/tournaments/{t.pk}/")
    assert "меньше 4 ханчанов" in text_ru


def test_calculator_page_and_bad_input(client):
    _, text = _queries(client, "/en/ratings/mahjong/calculator/")
    assert "mahjong-calculator.js" in text
    for query, field in [
        ({"players": "x", "hanchans": 8}, "players"),
        ({"players": 20, "hanchans": 0}, "hanchans"),
        ({"players": 28, "stages": "10/27,10/8"}, "stages[0]"),
        ({"players": 28, "stages": "ten"}, "stages[0]"),
        ({"players": 28, "stages": "10/28,10/30"}, "tournament.stages[1].players"),
        ({"players": 20, "hanchans": 8, "a": "200"}, "a"),
    ]:
        response = client.get("/ratings/mahjong/calculator.json", query)
        assert response.status_code == 400, query
        assert response.json()["field"] == field
    data = client.get("/ratings/mahjong/calculator.json", {"players": 20, "hanchans": 8, "a": "85.71"}).json()
    assert data["places"][0]["delta"] == round(2.1 * 1000 * 0.8571, 2)


def test_snapshot_summary_keeps_w_a_and_maxk():
    _league(16, n_tournaments=2)
    snapshot = RatingSnapshot.objects.get(rating_list__slug="mahjong-rr")
    assert [item["wa"] for item in snapshot.summary["maxk"]] == [2.0, 2.0, 1.0, 1.0]
    assert all(row["w"] == 2.0 and row["a"] == 100.0 for row in snapshot.summary["counted"])


def test_calculator_rounds_half_away_like_the_lists(client):
    # R of place 64 of 65 is 1000/64 = 15.625: shown 15.63, as the lists show it (half away from zero).
    data = client.get("/ratings/mahjong/calculator.json", {"players": 65, "hanchans": 8}).json()
    assert data["places"][63]["r"] == 15.63
    # A typed as 85.725 % is 8572.5 hundredths of a percent: 8573, not the even 8572.
    data = client.get("/ratings/mahjong/calculator.json", {"players": 20, "hanchans": 8, "a": "85.725"}).json()
    assert data["a"] == 85.73
