"""Issue 13's bad input on the public pages: page sizes, NUL, the calculators' numbers, the 404 page's links, HEAD."""

import re

import pytest

from federation import bounds
from federation.models import Player
from ratings.models import RatingList

pytestmark = pytest.mark.django_db

LIST_PAGES = ["/players/", "/tournaments/", "/go/dirs/", "/preferans/", "/en/players/"]


@pytest.fixture
def gorbunov_list_url():
    rating_list = RatingList.objects.filter(engine="gorbunov").first()
    return rating_list.get_absolute_url()


@pytest.mark.parametrize("size", ["-1", "0", "1000000", "abc", "1e3", " 7 ", "99999999999999999999999"])
def test_every_list_page_answers_any_page_size(client, gorbunov_list_url, size):
    for url in [*LIST_PAGES, gorbunov_list_url]:
        response = client.get(url, {"per_page": size})
        assert response.status_code == 200, (url, size)


def test_a_huge_page_size_shows_at_most_the_bound(client):
    Player.objects.bulk_create(
        Player(last_name=f"Фамилия{i:04d}", first_name="Имя", last_name_latin=f"Surname{i:04d}", city="Москва")
        for i in range(bounds.PER_PAGE_MAX + 20)
    )
    text = client.get("/en/players/", {"per_page": "1000000"}).content.decode()
    assert len(re.findall(r"Surname\d{4}", text)) == bounds.PER_PAGE_MAX
    text = client.get("/en/players/", {"per_page": "-1"}).content.decode()
    assert len(re.findall(r"Surname\d{4}", text)) == 1


@pytest.mark.parametrize(
    "url",
    [
        "/ratings/cards/calculator/api/?u=10&rt=1000&rating=1000&k=1&list=%00",
        "/players/?q=%00",
        "/players/?city=a%00b",
        "/tournaments/?%00=1",
        "/ratings/mahjong/?date=%00",
    ],
)
def test_a_nul_in_the_address_is_a_bad_request_with_a_message(client, url):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "character that is not allowed" in client.get("/en" + url).content.decode()


def test_an_overlong_query_string_is_a_bad_request(client):
    assert client.get("/players/", {"q": "a" * (bounds.QUERY_STRING_MAX_CHARS + 1)}).status_code == 400


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("rt", "nan"),
        ("rt", "inf"),
        ("rt", "-inf"),
        ("rt", "1e309"),
        ("rt", "1e308"),
        ("rt", "\N{NO-BREAK SPACE}"),
        ("k", "99999999999999999999"),
        ("k", "17"),
        ("rating", "1e3"),
        ("rating", "10001"),
        ("u", "-5"),
    ],
)
def test_the_gorbunov_calculator_answers_bad_numbers_with_a_400_naming_the_field(client, field, value):
    params = {"u": "10", "rt": "1000", "k": "1", "rating": "1000", field: value}
    response = client.get("/en/ratings/cards/calculator/api/", params)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field


def test_the_gorbunov_calculator_still_answers_good_numbers(client):
    response = client.get("/en/ratings/cards/calculator/api/", {"u": "10", "rt": "9000", "k": "16", "rating": "10000"})
    assert response.status_code == 200
    assert len(response.json()["places"]) == 10


@pytest.mark.parametrize("path", ["//evil.example/x", "/\\evil.example/x", "//evil.example/", "/en//evil.example/x"])
def test_the_language_switch_of_a_404_page_stays_on_the_site(client, path):
    response = client.get("/", PATH_INFO=path)  # the raw path, as a server hands it over (the client would parse it)
    assert response.status_code == 404
    text = response.content.decode()
    switch = text.split('id="language-switch"', 1)[1].split("</div>", 1)[0]
    links = re.findall(r'href="([^"]*)"', switch)
    assert links == ["/", "/en/"]


def test_the_language_switch_of_a_page_keeps_the_page_and_its_query(client):
    text = client.get("/players/?city=Казань").content.decode()
    switch = text.split('id="language-switch"', 1)[1].split("</div>", 1)[0]
    assert "/en/players/?city=" in switch


@pytest.mark.parametrize("url", ["/", "/en/", "/players/", "/tournaments/", "/ratings/cards/", "/ratings/mahjong/"])
def test_head_is_answered_wherever_get_is(client, url):
    get = client.get(url)
    head = client.head(url)
    assert get.status_code == 200
    assert head.status_code == 200
    assert head["Content-Type"] == get["Content-Type"]
