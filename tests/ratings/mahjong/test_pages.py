"""The mahjong pages in both languages: content, filters, CSV and XLSX, dates, the tournaments counted, the player's
breakdown (equal to the snapshot), the sections of the shared pages, the calculator; a number of queries that does
not grow with the list (the page and each download); every service that writes shows on the pages at once.

A test's transaction never commits, so a write that must show runs its commit callbacks
(``django_capture_on_commit_callbacks(execute=True)``), as a real request or task commits."""

import datetime
import io
import json

import pytest
from django.core.cache import caches
from openpyxl import load_workbook

from federation.formatting import plain_explanation
from federation.latin import transliterate
from ratings.mahjong import services
from ratings.mahjong.history import mahjong_history_import
from ratings.models import RatingEntry, RatingList, RatingSnapshot
from tests.factories import PlayerFactory, federation_staff
from tests.ratings.mahjong.factories import explained_by_the_full_list, mahjong_tournament
from tournaments.models import Result

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2025, 6, 1)
RR = "/en/ratings/mahjong/mahjong-rr/"


def _queries(client, url):
    """The page rendered cold (no cached page): its text."""
    caches["default"].clear()
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _league(n_players=16, n_tournaments=3):
    """``n_players`` placed in ``n_tournaments`` of 16 participants or more (enough to count in RR)."""
    services.mahjong_setup_defaults()
    players = [PlayerFactory(city="Казань" if i % 2 else "Москва") for i in range(n_players)]
    for t in range(n_tournaments):
        order = players[t:] + players[:t]
        mahjong_tournament(
            players=order, n=max(16, n_players), end=datetime.date(2025, 1, 1) + datetime.timedelta(days=20 * t)
        )
    services.mahjong_daily(today=TODAY)
    return players


@pytest.fixture
def sections(settings):
    settings.PLAYER_PAGE_SECTIONS = ["ratings.mahjong.sections.player_section"]
    settings.TOURNAMENT_PAGE_SECTIONS = ["ratings.mahjong.sections.tournament_section"]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


#: Each page and download of the mahjong pages, and the most queries it may read, whatever the number of rows (a page
#: that shows cities in English reads their English names once, then cached: federation.models.city_name).
BOUNDS = [
    (RR, 7),
    (RR + "?city=Казань&sort=-rating&page=2&per_page=5", 8),
    (RR + "?q=Latin&sort=name", 7),
    (RR + "?date=2025-06-01&sort=delta", 7),
    (RR + "?_export=csv", 4),
    (RR + "?_export=xlsx", 4),
    (RR + "?city=Казань&sort=-rating&_export=csv", 5),
    (RR + "?city=Москва&_export=xlsx", 5),
    ("/en/ratings/mahjong/", 6),
    (RR + "dates/", 4),
    (RR + "tournaments/", 4),
    # Issue 29: + the four reads of the tournaments the breakdowns are worked out from (``ratings.mahjong.explain``).
    ("/en/ratings/mahjong/players/{player}/", 11),
    ("/en/ratings/mahjong/calculator/", 1),
]


@pytest.mark.parametrize("size", [3, 40])
@pytest.mark.parametrize(("url", "most"), BOUNDS)
def test_pages_and_downloads_read_a_bounded_number_of_queries(client, django_assert_max_num_queries, size, url, most):
    """The same bound with 3 rows and with 40: no query per row (a column whose relation the selector does not read
    would add one per row, on the page or in a download)."""
    players = _league(size)
    url = url.format(player=players[0].pk)
    caches["default"].clear()
    with django_assert_max_num_queries(most):
        response = client.get(url)
    assert response.status_code == 200
    if "_export=csv" in url:
        lines = response.content.decode("utf-8-sig").strip().splitlines()
        assert len(lines) == 1 + (size if "city" not in url else size // 2)
    elif "_export=xlsx" in url:
        rows = list(load_workbook(io.BytesIO(response.content)).active.values)
        assert len(rows) == 1 + (size if "city" not in url else size - size // 2)
        assert rows[0] == ("Rank", "Player id", "Player", "Rating", "Change", "Tournaments", "City")
        assert {row[1] for row in rows[1:]} <= {player.pk for player in players}
    elif url == RR:
        assert response.content.decode().count("/en/ratings/mahjong/players/") == min(size, 50)


def test_index_and_list_in_both_languages(client):
    players = _league(16)
    text = _queries(client, RR)
    assert "RR rating" in text
    assert players[0].full_name_latin in text
    assert f'<a href="/en/ratings/mahjong/players/{players[0].pk}/">{players[0].full_name_latin}</a>' in text
    assert "2025-06-01" in text
    assert "16 players found" in text
    text_ru = _queries(client, "/ratings/mahjong/mahjong-rr/")
    assert "Рейтинг RR" in text_ru
    assert f'<a href="/ratings/mahjong/players/{players[0].pk}/">{players[0].full_name}</a>' in text_ru
    text = _queries(client, "/en/ratings/mahjong/")
    assert "mahjong-crr" in text


def test_a_row_shows_the_entry(client):
    """Rank, name, rating with two decimals, the change signed and coloured, the tournaments and the city."""
    players = _league(16)
    mahjong_tournament(players=players[::-1], end=datetime.date(2025, 6, 10))
    services.mahjong_daily(today=datetime.date(2025, 6, 11))
    entries = RatingEntry.objects.filter(
        snapshot__as_of=datetime.date(2025, 6, 11), snapshot__rating_list__slug="mahjong-rr"
    )
    up = entries.filter(delta__gt=0).select_related("player").first()
    down = entries.filter(delta__lt=0).select_related("player").first()
    text = _queries(client, RR + "?per_page=50")
    ru = _queries(client, "/ratings/mahjong/mahjong-rr/?per_page=50")
    for entry, css in ((up, "text-success"), (down, "text-danger")):
        row = (
            f'<td class="text-end text-nowrap">{entry.rank}</td><td class="name">'
            f'<a href="/en/ratings/mahjong/players/{entry.player_id}/">{entry.player.full_name_latin}</a></td>'
            f'<td class="col-rating text-end text-nowrap">{entry.rating:.2f}</td>'
            f'<td class="text-end text-nowrap"><span class="{css}">{entry.delta:+.2f}</span></td>'
            f'<td class="d-md-table-cell d-none text-end">{entry.events}</td>'
            f'<td class="d-md-table-cell d-none">{transliterate(entry.player.city)}</td></tr>'
        )
        assert row in text
        assert f"{entry.rating:.2f}".replace(".", ",") in ru
    first = _queries(client, RR + "?date=2025-06-01")
    assert '<td class="text-end text-nowrap"></td>' in first  # the first list: no change


# --- a page is fresh at once after each service that writes --------------------------------------------------------


def test_the_daily_job_shows_at_once(client, committed):
    players = _league(16)
    before = client.get(RR).content.decode()
    assert "as of 1 Jun 2025" in before
    newcomers = [PlayerFactory(last_name_latin=f"Newcomer{i}") for i in range(16)]
    mahjong_tournament(players=newcomers, end=datetime.date(2025, 6, 5))
    mahjong_tournament(players=newcomers[::-1] + players[:2], end=datetime.date(2025, 6, 6))
    assert client.get(RR).content.decode() == before  # the page as cached: nothing committed a change yet
    with committed():
        services.mahjong_daily(today=datetime.date(2025, 6, 7))
    after = client.get(RR).content.decode()
    assert "as of 7 Jun 2025" in after
    assert "Newcomer0" in after
    assert "7 Jun 2025" in client.get(RR + "dates/").content.decode()
    assert "7 Jun 2025" in client.get(f"/en/ratings/mahjong/players/{players[0].pk}/").content.decode()


def test_a_rebuild_shows_at_once(client, committed):
    players = _league(16)
    rr = RatingList.objects.get(slug="mahjong-rr")
    page = RR + "?date=2025-02-01"
    before = client.get(page).content.decode()
    assert "as of 21 Jan 2025" not in before
    counted = RR + "tournaments/?date=2025-01-21"
    assert "There was no list yet on 21 Jan 2025" in client.get(counted).content.decode()
    with committed():
        services.mahjong_rebuild(rating_lists=[rr], start=datetime.date(2025, 1, 1), end=datetime.date(2025, 2, 1))
    after = client.get(page).content.decode()
    assert "as of 21 Jan 2025" in after
    assert players[0].full_name_latin in after
    assert "There was no list yet" not in client.get(counted).content.decode()
    # A correction, then the rebuild of its date: the places change on that date's list.
    result = Result.objects.get(player=players[0], tournament__end_date=datetime.date(2025, 1, 1))
    result.place, other = 16, Result.objects.get(tournament=result.tournament, place=16)
    other.place = 1
    Result.objects.bulk_update([result, other], ["place"])
    with committed():
        services.mahjong_rebuild(rating_lists=[rr], start=datetime.date(2025, 1, 21), end=datetime.date(2025, 1, 21))
    assert client.get(page).content.decode() != after


def test_staff_judgements_show_at_once(client, committed, sections):
    """Accrediting, withdrawing and judging a rank restriction show on the tournament's page (its mahjong section)."""
    services.mahjong_setup_defaults()
    staff = federation_staff()
    tournament = mahjong_tournament(n=16, end=TODAY, accredited=False)
    url = f"/en/tournaments/{tournament.pk}/"
    assert "not counted in RR rating" in client.get(url).content.decode()
    with committed():
        services.mahjong_accredit(tournament=tournament, user=staff)
    assert "counted in RR rating" in client.get(url).content.decode()
    assert "not counted in RR rating" not in client.get(url).content.decode()
    with committed():
        services.mahjong_accreditation_withdraw(tournament=tournament, user=staff, reason="a wrong venue")
    assert "not counted in RR rating" in client.get(url).content.decode()
    online = mahjong_tournament(n=16, end=TODAY, online=True, rank_restricted=True)
    url = f"/en/tournaments/{online.pk}/"
    assert "not counted in Online rating" in client.get(url).content.decode()
    with committed():
        services.mahjong_rank_restriction_judge(tournament=online, user=staff, legitimate=True)
    assert "counted in Online rating" in client.get(url).content.decode()
    assert "not counted in Online rating" not in client.get(url).content.decode()


def test_setting_up_the_lists_shows_at_once(client, committed):
    RatingList.objects.filter(engine__startswith="mahjong").delete()
    assert "mahjong-rr" not in client.get("/en/ratings/mahjong/").content.decode()
    with committed():
        services.mahjong_setup_defaults()
    assert "mahjong-rr" in client.get("/en/ratings/mahjong/").content.decode()


def test_a_history_import_shows_at_once(client, committed):
    services.mahjong_setup_defaults()
    assert "not computed yet" in client.get("/en/ratings/mahjong/").content.decode()
    assert "Imported Player" not in client.get("/en/players/").content.decode()
    people = [
        {"id": f"h{i:02d}", "name": f"Игрок Импортный{i}", "name_latin": f"Imported Player{i}", "country": "RU"}
        for i in range(16)
    ]
    doc = {
        "system": "mahjong-rr",
        "country": "RU",
        "players": people,
        "tournaments": [
            {
                "id": f"imp{t}",
                "end_date": f"2025-0{t + 1}-01",
                "players": 16,
                "hanchans": 8,
                "country": "RU",
                "accredited": True,
                "open": True,
                "results": [{"player": f"h{(i + t) % 16:02d}", "place": i + 1} for i in range(16)],
            }
            for t in range(2)
        ],
    }
    rr = RatingList.objects.get(slug="mahjong-rr")
    with committed():
        mahjong_history_import(doc=json.loads(json.dumps(doc)), rating_list=rr)
    assert "Imported Player0" in client.get(RR).content.decode()
    assert "Imported Player0" in client.get("/en/players/").content.decode()


def test_list_search_filter_sort_and_csv(client):
    players = _league(16)
    target = players[3]
    text = _queries(client, f"/en/ratings/mahjong/mahjong-rr/?q={target.last_name_latin}")
    assert target.full_name_latin in text
    assert players[4].full_name_latin not in text
    text = _queries(client, "/ratings/mahjong/mahjong-rr/?city=Казань&sort=-rating")
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
    text = _queries(client, "/en/ratings/mahjong/mahjong-rr/?date=2025-02-01")
    assert "as of 25 Jan 2025" in text
    text = _queries(client, "/en/ratings/mahjong/mahjong-rr/dates/")
    assert "25 Jan 2025" in text
    assert "1 Jun 2025" in text
    text = _queries(client, "/en/ratings/mahjong/mahjong-rr/?date=yesterday")
    assert "is not a date" in text
    text = _queries(client, "/en/ratings/mahjong/mahjong-rr/?date=2000-01-01")
    assert "There was no list yet on 1 Jan 2000: the first one, of 25 Jan 2025, is shown." in text
    assert client.get("/en/ratings/mahjong/no-such-list/").status_code == 404


@pytest.mark.parametrize("page", ["", "tournaments/"])
def test_one_date_rule_on_the_list_pages(client, page):
    """A bad date or week shows the newest list saying what was wrong; a date between lists, the list in force
    then, saying so; a date before the first list, the first list, saying so."""
    _league(16)
    services.mahjong_daily(today=datetime.date(2025, 1, 25))
    url = f"/en/ratings/mahjong/mahjong-rr/{page}"
    text = _queries(client, url + "?date=2025-02-30")
    assert "“2025-02-30” is not a date (YYYY-MM-DD). The newest list, of 1 Jun 2025, is shown." in text
    text = _queries(client, url + "?week=2025-W77")
    assert "“2025-W77” is not a rating week (YYYY-Www, e.g. 2026-W10). The newest list, of 1 Jun 2025" in text
    text = _queries(client, url + "?date=2025-03-01")
    assert "No list is dated 1 Mar 2025: the list in force on that date, of 25 Jan 2025, is shown." in text
    text = _queries(client, url + "?week=2025-W10")  # Monday 2025-03-03
    assert "No list is dated 3 Mar 2025: the list in force on that date, of 25 Jan 2025, is shown." in text
    text = _queries(client, url + "?date=2025-06-01")
    assert 'id="date-message"' not in text
    text = _queries(client, url + "?date=2024-12-31")
    assert "There was no list yet on 31 Dec 2024: the first one, of 25 Jan 2025, is shown." in text
    text_ru = _queries(client, f"/ratings/mahjong/mahjong-rr/{page}?date=2025-03-01")
    assert "Списка от 01.03.2025 нет: показан список, действовавший в этот день, — от 25.01.2025." in text_ru


def test_a_bad_date_on_the_player_page_shows_the_newest_lists(client):
    players = _league(16)
    text = _queries(client, f"/en/ratings/mahjong/players/{players[0].pk}/?date=tomorrow")
    assert "“tomorrow” is not a date (YYYY-MM-DD). The newest lists are shown." in text
    assert "1 Jun 2025" in text


def test_tournaments_counted_with_w_a_and_maxk(client):
    _league(16, n_tournaments=6)
    text = _queries(client, "/en/ratings/mahjong/mahjong-rr/tournaments/?date=2025-06-01")
    assert text.count('class="table-warning"') == 4
    # The rules' variable name is not shown: a player reads what it is.
    assert "MAXK" not in text
    assert text.count('<span class="badge text-bg-warning">largest W·A</span>') == 4
    assert "part B of every rating is divided by their sum" in text
    assert "2.00" in text  # W = 0.40 + 1.60
    mahjong_tournament(n=15, end=datetime.date(2025, 5, 1), name="Малый турнир")
    services.mahjong_daily(today=datetime.date(2025, 6, 2))
    text_ru = _queries(client, "/ratings/mahjong/mahjong-rr/tournaments/")
    assert "Малый турнир</a>: меньше 16 игроков" in text_ru
    assert "MAXK" not in text_ru
    assert "наибольшее W·A" in text_ru


def test_player_page_breakdown_equals_the_snapshot(client, sections):
    players = _league(16, n_tournaments=6)
    player = players[5]
    entry = RatingEntry.objects.get(snapshot__rating_list__slug="mahjong-rr", player=player)
    explained = explained_by_the_full_list(entry)
    text = _queries(client, f"/en/ratings/mahjong/players/{player.pk}/")
    assert f"{entry.rating:.2f}" in text
    for score in explained["scores"]:
        assert f"{score['delta']:.2f}" in text
        assert f"{score['w']:.2f}" in text
        assert f"{score['r']:.2f}" in text
    # Each line of the stored formula, as a player reads it (no "MAXK": federation.formatting.plain_explanation).
    for line in explained["formula"]["en"]:
        assert plain_explanation(line, "en") in text
    assert "MAXK" not in text
    in_a = sum(score["in_a"] for score in explained["scores"])
    assert in_a == entry.details["k"] == 6  # 6 tournaments: 5 + ceil(0.8 * 1)
    assert 'id="mahjong-chart"' in text
    # In Russian: the same numbers, the Russian formula.
    text_ru = _queries(client, f"/ratings/mahjong/players/{player.pk}/")
    for line in explained["formula"]["ru"]:
        assert plain_explanation(line, "ru") in text_ru
    # The shared player page shows the section.
    text = _queries(client, f"/en/players/{player.pk}/")
    assert "Riichi mahjong ratings" in text
    assert f"{entry.rating:.2f}" in text


def test_tournament_page_says_why_it_does_not_count(client, sections):
    services.mahjong_setup_defaults()
    t = mahjong_tournament(n=16, hanchans=3, end=TODAY)
    text = _queries(client, f"/en/tournaments/{t.pk}/")
    assert "not counted in RR rating: fewer than 4 hanchans" in text
    assert "counted in CRR rating" in text
    text_ru = _queries(client, f"/tournaments/{t.pk}/")
    assert "меньше 4 ханчанов" in text_ru


def test_calculator_page_and_bad_input(client):
    text = _queries(client, "/en/ratings/mahjong/calculator/")
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
