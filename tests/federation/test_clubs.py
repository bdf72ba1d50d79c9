"""Clubs (issue 28): the list by city, a club's page (its meeting place and contact as staff enter them, its players'
current ratings in every system with their movement this season, its tournaments), a link from every club name,
the sitemap, the admin, a bounded number of queries, and a page fresh at once after a club is edited."""

import re

import pytest

from federation.clubs import club_ratings
from federation.models import Club, Player
from ratings.dirs.models import DirsRating
from ratings.models import Engine, RatingEntry, RatingList
from ratings.preferans.models import DealResult, PreferansRating
from tests.factories import ClubFactory, PlayerFactory, ResultFactory, TournamentFactory, federation_staff, organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_the_clubs_list_groups_clubs_by_city_and_links_each(client, dragon):
    ClubFactory(name="Аист", city="Казань")
    ClubFactory(name="Без города", city="")
    text = client.get("/clubs/").content.decode()
    assert "<h1" in text
    assert "Клубы" in text
    rows = re.findall(r'<a href="/clubs/(\d+)/">([^<]+)</a>', text)
    names = [name for _pk, name in rows]
    # By city, then name: the clubs without a city first, then Kazan's two, then Moscow's.
    assert names == ["Без города", "Аист", "«Дракон»", "Тигр"]
    assert (str(dragon["club"].pk), "«Дракон»") in rows
    kazan = client.get("/clubs/", {"city": "Казань"}).content.decode()
    assert "«Дракон»" in kazan
    assert "Аист" in kazan
    assert "Тигр" not in kazan
    english = client.get("/en/clubs/").content.decode()
    assert '<h1 class="h3">Clubs</h1>' in english
    assert f'href="/en/clubs/{dragon["club"].pk}/"' in english
    csv = client.get("/clubs/", {"city": "Казань", "_export": "csv"})
    assert csv.status_code == 200
    assert "«Дракон»" in csv.content.decode("utf-8-sig")
    assert "Тигр" not in csv.content.decode("utf-8-sig")


def test_a_club_page_shows_where_it_meets_and_whom_to_ask_in_each_language(client, dragon):
    club = dragon["club"]
    ru = client.get(f"/clubs/{club.pk}/").content.decode()
    assert "ул. Баумана, 1, по средам с 19:00" in ru
    assert "Айрат, +7 900 000-00-00" in ru
    assert 'href="https://dragon.example/" rel="nofollow noopener external"' in ru
    assert '<a href="/clubs/?city=%D0%9A%D0%B0%D0%B7%D0%B0%D0%BD%D1%8C">Казань</a>' in ru
    en = client.get(f"/en/clubs/{club.pk}/").content.decode()
    assert "1 Bauman St, Wednesdays from 7 pm" in en
    assert "по средам" not in en
    assert "Airat, +7 900 000-00-00" in en  # no English contact entered: the Russian one in Latin letters (issue 28)
    assert "Айрат" not in en
    assert client.get("/clubs/999999/").status_code == 404
    assert client.get("/en/clubs/999999/").status_code == 404


def test_a_club_page_lists_its_players_ratings_season_and_tournaments(client, dragon):
    club, ann, bob, _cat = dragon["club"], dragon["ann"], dragon["bob"], dragon["cat"]
    response = client.get(f"/clubs/{club.pk}/")
    text = response.content.decode()
    lists = {item.engine: item for item in response.context["lists"]}
    assert set(lists) == {Engine.GORBUNOV, Engine.MAHJONG_RR, Engine.DIRS, Engine.PREFERANS}
    gorbunov = lists[Engine.GORBUNOV]
    # Best first; the other club's player is not there; Ann moved +40 since the last list before 1 January (her
    # newest entry up to then, 1490); Bob had no rating then: new.
    assert [(row.player, int(row.rating), row.rank) for row in gorbunov.rows] == [(ann, 1530, 1), (bob, 1200, 3)]
    assert [row.season for row in gorbunov.rows] == [40, None]
    assert [(row.player, row.season) for row in lists[Engine.MAHJONG_RR].rows] == [(bob, pytest.approx(50.5))]
    dirs = lists[Engine.DIRS].rows
    assert [row.player for row in dirs] == [ann]
    assert dirs[0].season == DirsRating.objects.get(player=ann).rating - 150 > 0
    preferans = {row.player: row for row in lists[Engine.PREFERANS].rows}
    assert set(preferans) == {ann, bob}
    for player, row in preferans.items():
        assert row.rating == PreferansRating.objects.get(player=player).rating
        assert row.season == pytest.approx(
            sum(DealResult.objects.filter(player=player).values_list("delta", flat=True))
        )
    # On the page: names linked, the Russian numbers, "new", the players and the tournaments.
    assert f'href="/players/{ann.pk}/">Акулова Анна</a>' in text
    assert "+40" in text
    assert "новый" in text.lower()
    assert "+50,50" in text
    assert "Котов" not in text
    assert "Робот" not in text
    assert "Зеленодольск" in text  # a player from another city than the club's
    table = response.context["tournaments"]
    rows = [row.record for row in table.page.object_list]
    assert [(t.name, t.club_players, t.best_place) for t in rows] == [("Кубок Казани", 2, 2)]
    assert "Черновик" not in text
    english = client.get(f"/en/clubs/{club.pk}/").content.decode()
    assert "Akulova Anna" in english
    assert "+50.50" in english


def test_club_ratings_of_a_club_without_players_is_empty(dragon):
    empty = ClubFactory(name="Пустой")
    assert club_ratings(club=empty, players=[], language="ru") == []


@pytest.mark.parametrize("members", [2, 25])
def test_a_club_page_reads_a_bounded_number_of_queries(client, dragon, members, django_assert_max_num_queries):
    """The page costs the same queries for 2 members as for 25, whatever their ratings (20 with a cold cache: the
    club, its players, the lists and their ratings in ten at most, one more for each mahjong list's ratings before the
    season (its rows since its whole snapshot: issue 29), the tournaments' page and count, the session and the
    federation's identity)."""
    club = dragon["club"]
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).order_by("ordering", "slug").first()
    snapshot = gorbunov.snapshots.order_by("-as_of").first()
    for n in range(members):
        player = PlayerFactory(club=club)
        RatingEntry.objects.create(snapshot=snapshot, player=player, rank=10 + n, rating=1000 + n)
        ResultFactory(tournament=TournamentFactory(), player=player, place=1)
    with django_assert_max_num_queries(20):
        assert client.get(f"/clubs/{club.pk}/").status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get("/clubs/?sort=-player_count").status_code == 200


def test_every_club_name_on_the_site_links_to_the_club(client, dragon):
    club, ann = dragon["club"], dragon["ann"]
    link = f'<a href="/clubs/{club.pk}/">«Дракон»</a>'
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).order_by("ordering", "slug").first()
    pages = [
        "/players/",
        f"/players/{ann.pk}/",
        f"/tournaments/{dragon['tournament'].pk}/",
        gorbunov.get_absolute_url(),
        "/preferans/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert link in response.content.decode(), url
    # The DIRS rating's own club, on the leaderboard.
    DirsRating.objects.filter(player=ann).update(club=club)
    assert link in client.get("/go/dirs/").content.decode()
    assert f'href="/en/clubs/{club.pk}/"' in client.get("/en/players/").content.decode()


def test_the_sitemap_names_the_clubs_list_and_every_club_in_both_languages(client, dragon):
    text = client.get("/sitemap.xml").content.decode()
    for club in Club.objects.all():
        assert f"/clubs/{club.pk}/</loc>" in text
        assert f'/en/clubs/{club.pk}/"' in text
    assert "/clubs/</loc>" in text


def test_an_edited_club_is_on_its_page_and_the_list_at_once(client, dragon, committed):
    """The pages are cached; a club is in the registry scope, so staff's save makes them fresh when it commits."""
    club = dragon["club"]
    assert "Новое место" not in client.get(f"/clubs/{club.pk}/").content.decode()
    client.get("/clubs/")
    with committed():
        club.meeting_place = "Новое место"
        club.name = "«Дракон-2»"
        club.save()
    assert "Новое место" in client.get(f"/clubs/{club.pk}/").content.decode()
    assert "«Дракон-2»" in client.get("/clubs/").content.decode()
    assert "«Дракон-2»" in client.get(f"/players/{dragon['ann'].pk}/").content.decode()


def test_staff_edit_a_club_in_the_admin_and_organisers_cannot(client, dragon, committed):
    club = dragon["club"]
    data = {
        "name": "«Дракон»",
        "city": "Казань",
        "country": "RU",
        "meeting_place": "Кремлёвская, 2",
        "meeting_place_en": "",
        "contact": "",
        "contact_en": "",
        "website": "javascript:alert(1)",
    }
    client.force_login(organiser())
    assert client.post(f"/admin/federation/club/{club.pk}/change/", data).status_code == 403
    client.force_login(federation_staff())
    refused = client.post(f"/admin/federation/club/{club.pk}/change/", data)
    assert refused.status_code == 200  # the form again, the website named
    assert "website" in refused.context["adminform"].form.errors
    club.refresh_from_db()
    assert club.meeting_place.startswith("ул. Баумана")
    with committed():
        saved = client.post(f"/admin/federation/club/{club.pk}/change/", {**data, "website": "https://kazan.example"})
    assert saved.status_code == 302
    club.refresh_from_db()
    assert (club.meeting_place, club.website) == ("Кремлёвская, 2", "https://kazan.example")
    client.logout()
    assert "Кремлёвская, 2" in client.get(f"/clubs/{club.pk}/").content.decode()


def test_a_player_without_a_club_and_a_club_without_players(client, db):
    loner = PlayerFactory(last_name="Одиночкин")
    empty = ClubFactory(name="Пустой")
    assert "/clubs/" not in client.get(f"/players/{loner.pk}/").content.decode().split("<main", 1)[1]
    text = client.get(f"/clubs/{empty.pk}/").content.decode()
    assert "Пустой" in text
    assert Player.objects.filter(club=empty).count() == 0
