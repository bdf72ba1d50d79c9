import datetime
import random
import re

import pytest
from django.test import override_settings
from django.utils import translation

from federation import formatting
from ratings.engines.preferans import deal_delta
from ratings.preferans.models import DealResult
from ratings.preferans.sections import player_section
from ratings.preferans.services import DealInput, deals_apply, game_create
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db
WHEN = datetime.datetime(2026, 3, 7, 19, tzinfo=datetime.UTC)


def _played(games=2, deals=3, size=3, prefix="g"):
    players = [PlayerFactory() for _ in range(size)]
    rng = random.Random(3)
    for g in range(games):
        game, _ = game_create(
            server=None,
            external_id=f"{prefix}{g}",
            player_ids=[p.pk for p in players],
            played_at=WHEN + datetime.timedelta(days=g),
        )
        for _ in range(deals):
            whists = [rng.randint(-10, 10) for _ in players[:-1]]
            whists.append(-sum(whists))
            deals_apply(deals=[DealInput(game=game, whists={p.pk: w for p, w in zip(players, whists, strict=True)})])
    return players


def test_leaderboard_per_league_sort_search_and_csv(client, django_assert_max_num_queries):
    players = _played()
    champion = PlayerFactory(last_name="Чемпионов", last_name_latin="Championov")
    from ratings.preferans.models import PreferansRating

    PreferansRating.objects.create(player=champion, rating=1900, max_rating=2100, league="pro")
    with django_assert_max_num_queries(10):
        response = client.get("/en/preferans/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Preferans rating" in text
    assert players[0].last_name_latin in text
    assert "Championov" not in text
    pro = client.get("/en/preferans/?league=pro&sort=-max_rating").content.decode()
    assert "Championov" in pro
    assert "2100.00" in pro
    found = client.get(f"/en/preferans/?q={players[1].last_name_latin}").content.decode()
    assert players[1].last_name_latin in found
    assert players[0].last_name_latin not in found
    csv = client.get("/en/preferans/?league=pro&_export=csv")
    assert csv.status_code == 200
    assert "Championov" in csv.content.decode("utf-8-sig")
    assert ",1900.00," in csv.content.decode("utf-8-sig")  # a number, rounded as the page shows it


def _leaderboard(count: int) -> None:
    """``count`` people in the amateur league, half of them in a club, and a bot that is not listed."""
    from ratings.preferans.models import PreferansRating

    club = ClubFactory(name="Вист")
    for n in range(count):
        player = PlayerFactory(club=club if n % 2 else None, city=["Тула", "Омск"][n % 2])
        PreferansRating.objects.create(player=player, rating=1000 + n, max_rating=1100 + n, deals=n)
    PreferansRating.objects.create(player=PlayerFactory(is_bot=True), rating=1500, max_rating=1500)


@pytest.mark.parametrize("count", [3, 40])
@pytest.mark.parametrize(
    "query", [{}, {"_export": "csv"}, {"_export": "xlsx"}, {"city": "Тула"}, {"city": "Тула", "_export": "xlsx"}]
)
def test_the_leaderboard_and_its_downloads_read_a_few_queries_whatever_the_rows(
    client, django_assert_max_num_queries, count, query
):
    """The page, the CSV and the XLSX come from one table: the same few queries for 3 rows and for 40 (no query a
    row: every column's relation is read with the rows)."""
    _leaderboard(count)
    with django_assert_max_num_queries(8):
        response = client.get("/en/preferans/", query)
    assert response.status_code == 200
    if query.get("_export") == "csv":
        assert response.content.decode("utf-8-sig").count("\r\n") == 1 + count
    elif "_export" not in query:
        assert response.content.decode().count("/en/players/") >= min(count, 50) // (2 if query else 1)


def test_the_downloads_have_the_pages_columns_and_every_row(client):
    _leaderboard(60)
    rows = client.get("/en/preferans/", {"_export": "csv"}).content.decode("utf-8-sig").splitlines()
    assert rows[0] == "#,Player id,Player,Rating,Highest rating,Deals,City,Club"
    assert len(rows) == 61  # every row, not the page of 50
    assert rows[1].startswith("1,")
    assert rows[1].endswith(",1059.00,1159.00,59,Omsk,Vist")  # the English download: names in Latin letters
    assert rows[60].split(",")[0] == "60"
    page = client.get("/preferans/", {"page": 2}).content.decode()
    assert ">51</td>" in page  # the second page goes on counting from the first
    with translation.override("ru"):
        best = formatting.rating(1059, 2)
    assert f'<td class="col-rating text-end text-nowrap">{best}</td>' in client.get("/preferans/").content.decode()


def test_player_section_chart_sums_per_game(rf, client, django_assert_max_num_queries):
    players = _played(games=2, deals=3)
    me = players[0]
    with translation.override("en"), django_assert_max_num_queries(9):  # 8 + the federation identity, read once
        html = player_section(rf.get("/"), me).html
    assert 'id="preferans-chart"' in html
    rows = list(DealResult.objects.filter(player=me).order_by("deal_id"))
    after_first_game = rows[2].rating_after
    after_second_game = rows[5].rating_after
    assert f"{round(after_first_game, 2)}" in html
    assert f"{round(after_second_game, 2)}" in html
    assert f"{sum(r.delta for r in rows[:3]):+.2f}" in html
    assert "Rs = " in html  # the explanation of each recent deal
    assert player_section(rf.get("/"), PlayerFactory()) is None


def test_player_page_shows_the_section(client):
    me = _played()[0]
    with override_settings(PLAYER_PAGE_SECTIONS=["ratings.preferans.sections.player_section"]):
        response = client.get(f"/en/players/{me.pk}/")
    assert response.status_code == 200
    assert "preferans-chart" in response.content.decode()


def test_game_page_shows_deals_and_explanations(client):
    _played(games=1, deals=2)
    from ratings.preferans.models import Game

    game = Game.objects.get()
    text = client.get(f"/en/preferans/games/{game.pk}/").content.decode()
    assert "Deals" in text
    assert "table rating Rt" in text
    ru = client.get(f"/preferans/games/{game.pk}/").content.decode()
    assert "рейтинг стола Rt" in ru


def test_calculator_page_and_its_numbers_equal_the_engine(client):
    page = client.get("/en/preferans/calculator/")
    assert page.status_code == 200
    assert "preferans-calculator.js" in page.content.decode()
    response = client.get(
        "/en/preferans/calculator/data/", {"ratings": "1000, 2000, 4500", "tables": "1800,1500,1000", "whists": "-5"}
    )
    assert response.status_code == 200
    data = response.json()
    for i, rs in enumerate([1000, 2000, 4500]):
        for j, rt in enumerate([1800, 1500, 1000]):
            assert data["cells"][i][j] == deal_delta(rs, rt, -5)
    assert data["cells"][0][0] == pytest.approx(1.8597, abs=5e-5)
    ten = client.get("/preferans/calculator/data/", {"ratings": "2000", "tables": "1500", "whists": "10"}).json()
    assert ten["cells"][0][0] == pytest.approx(2.8702, abs=5e-5)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"ratings": "abc", "tables": "1000", "whists": "1"}, "ratings"),
        ({"ratings": "1000", "tables": "", "whists": "1"}, "tables"),
        ({"ratings": "1000", "tables": "1000", "whists": "1.5"}, "whists"),
        ({"ratings": "1000", "tables": "99999", "whists": "1"}, "tables"),
        ({"ratings": ",".join(["1000"] * 30), "tables": ",".join(["1000"] * 30), "whists": "1"}, "ratings"),
    ],
)
def test_calculator_refuses_bad_input(client, params, field):
    response = client.get("/en/preferans/calculator/data/", params)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == field


def test_the_list_of_games_newest_first_with_their_tables(client, django_assert_max_num_queries):
    players = _played(games=3)
    with django_assert_max_num_queries(6):
        response = client.get("/en/preferans/games/")
    assert response.status_code == 200
    text = response.content.decode()
    rows = text.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert rows.count("<tr>") == 3
    assert players[0].display_name("en") in rows
    dates = re.findall(r'<a href="/en/preferans/games/\d+/">([^<]+)</a>', rows)
    assert len(dates) == 3
    assert '<a href="/en/preferans/games/">' in client.get("/en/preferans/").content.decode()
