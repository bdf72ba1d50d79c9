"""The API's clubs (issue 28): /api/v1/clubs/, a club and its tournaments, the same as the clubs' pages; ETag and 304,
an answer fresh at once after a club is edited, a bounded number of queries, errors naming the parameter."""

import pytest

from federation.models import Club
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def _ok(client, url, **extra):
    response = client.get(url, **extra)
    assert response.status_code == 200, (url, response.content[:500])
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def _refused(response, status, field):
    assert response.status_code == status, response.content
    assert response.json()["errors"][0]["field"] == field, response.json()


def test_the_document_names_the_clubs_calls(client):
    paths = _ok(client, f"{V1}/openapi.json")["paths"]
    assert {"/api/v1/clubs/", "/api/v1/clubs/{id}/", "/api/v1/clubs/{id}/tournaments/"} <= set(paths)


def test_clubs_by_city_as_the_page_lists_them(client, dragon):
    ClubFactory(name="Аист", city="Казань")
    ClubFactory(name="Гамбит", city="Berlin", country="DE")
    body = _ok(client, f"{V1}/clubs/")
    assert [(c["city"], c["name"]) for c in body["clubs"]] == [
        ("Berlin", "Гамбит"),
        ("Казань", "Аист"),
        ("Казань", "«Дракон»"),
        ("Москва", "Тигр"),
    ]
    dragon_ref = next(c for c in body["clubs"] if c["id"] == dragon["club"].pk)
    assert dragon_ref == {
        "id": dragon["club"].pk,
        "name": "«Дракон»",
        "display_name": "«Дракон»",  # Russian asked: as typed (in English: «Drakon»)
        "city": "Казань",
        "display_city": "Казань",
        "country": "RU",
        "players": 2,  # the bot is nobody's member
        "url": f"/clubs/{dragon['club'].pk}/",
    }
    kazan = _ok(client, f"{V1}/clubs/", data={"city": "Казань"})
    assert [c["name"] for c in kazan["clubs"]] == ["Аист", "«Дракон»"]
    assert [c["name"] for c in _ok(client, f"{V1}/clubs/?country=DE")["clubs"]] == ["Гамбит"]
    paged = _ok(client, f"{V1}/clubs/?per_page=1&page=2")
    assert paged["paging"] == {"count": 4, "page": 2, "per_page": 1, "pages": 4}
    assert _ok(client, f"{V1}/clubs/?lang=en")["clubs"][0]["url"].startswith("/en/clubs/")
    _refused(client.get(f"{V1}/clubs/?country=russia"), 400, "country")
    _refused(client.get(f"{V1}/clubs/?city=a%01b"), 400, "city")
    _refused(client.get(f"{V1}/clubs/?per_page=1000"), 400, "per_page")


def test_a_club_is_what_its_page_shows(client, dragon):
    club = dragon["club"]
    page = client.get(f"/clubs/{club.pk}/").context
    body = _ok(client, f"{V1}/clubs/{club.pk}/")
    assert body["meeting_place"] == "ул. Баумана, 1, по средам с 19:00"
    assert body["contact"] == "Айрат, +7 900 000-00-00"
    assert body["website"] == "https://dragon.example/"
    assert body["players"] == 2
    assert [p["id"] for p in body["members"]] == [p.pk for p in page["players"]]
    assert [item["list"] for item in body["ratings"]] == [item.rating_list.slug for item in page["lists"]]
    for item, shown in zip(body["ratings"], page["lists"], strict=True):
        assert [(row["player"]["id"], row["rating"], row["rank"]) for row in item["players"]] == [
            (row.player.pk, pytest.approx(float(row.rating)), row.rank) for row in shown.rows
        ]
        assert [row["season"] for row in item["players"]] == [
            None if row.season is None else pytest.approx(float(row.season)) for row in shown.rows
        ]
    gorbunov = next(item for item in body["ratings"] if item["system"] == "gorbunov")
    assert [row["season"] for row in gorbunov["players"]] == [40.0, None]
    english = _ok(client, f"{V1}/clubs/{club.pk}/?lang=en")
    assert english["meeting_place"] == "1 Bauman St, Wednesdays from 7 pm"
    assert english["members"][0]["name"] == "Akulova Anna"
    _refused(client.get(f"{V1}/clubs/999999/"), 404, "id")
    _refused(client.get(f"{V1}/clubs/abc/"), 400, "id")


def test_a_players_answer_names_their_club_by_id(client, dragon):
    assert _ok(client, f"{V1}/players/{dragon['ann'].pk}/")["club_id"] == dragon["club"].pk
    assert _ok(client, f"{V1}/players/{PlayerFactory().pk}/")["club_id"] is None


def test_a_clubs_tournaments(client, dragon):
    club = dragon["club"]
    body = _ok(client, f"{V1}/clubs/{club.pk}/tournaments/")
    assert body["club"]["id"] == club.pk
    assert body["paging"]["count"] == 1
    row = body["tournaments"][0]
    assert (row["tournament"]["name"], row["club_players"], row["best_place"]) == ("Кубок Казани", 2, 2)
    _refused(client.get(f"{V1}/clubs/999999/tournaments/"), 404, "id")


def test_a_club_answers_304_and_is_fresh_at_once_after_an_edit(client, dragon, django_capture_on_commit_callbacks):
    club = dragon["club"]
    url = f"{V1}/clubs/{club.pk}/"
    first = client.get(url)
    etag = first["ETag"]
    assert first["Last-Modified"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    assert client.get(url + "?lang=en", HTTP_IF_NONE_MATCH=etag).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):  # staff's save in the admin, committed
        club.contact = "Новый контакт"
        club.save()
    after = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after["ETag"] != etag
    assert after.json()["contact"] == "Новый контакт"
    # A player who joins the club is in its answer at once too (the registry's version).
    with django_capture_on_commit_callbacks(execute=True):
        PlayerFactory(last_name="Новичков", club=club)
    assert "Новичков" in {p["name"].split()[0] for p in _ok(client, url)["members"]}
    listed = client.get(f"{V1}/clubs/")
    assert listed["ETag"]
    assert client.get(f"{V1}/clubs/", HTTP_IF_NONE_MATCH=listed["ETag"]).status_code == 304


@pytest.mark.parametrize("members", [2, 30])
def test_club_answers_read_a_bounded_number_of_queries(client, dragon, members, django_assert_max_num_queries):
    club = dragon["club"]
    for _ in range(members):
        PlayerFactory(club=club)
    for n in range(members):
        Club.objects.create(name=f"Клуб {n}", city="Самара")
    # One a mahjong list for its members' ratings before the season, read from the kept changes (issue 29).
    with django_assert_max_num_queries(14):
        _ok(client, f"{V1}/clubs/{club.pk}/")
    with django_assert_max_num_queries(3):
        _ok(client, f"{V1}/clubs/?per_page=100")
    with django_assert_max_num_queries(4):
        _ok(client, f"{V1}/clubs/{club.pk}/tournaments/?per_page=100")
