"""The director's registration form at scale: members found by name as you type (either alphabet), not listed."""

import pytest

from ratings.dirs.models import DirsRating
from tests.factories import ClubFactory, PlayerFactory, UserFactory, organiser
from tournaments.go.models import Registration

from .helpers import EN, create, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    client.force_login(organiser())
    return client


def _members():
    club = ClubFactory(name="Tengen")
    petrov = PlayerFactory(
        last_name="Петров", first_name="Пётр", last_name_latin="Petrov", first_name_latin="Petr", club=club
    )
    DirsRating.objects.create(player=petrov, rating=185, initial_rating=185, declared_rank="4k")
    sidorova = PlayerFactory(
        last_name="Сидорова", first_name="Анна", last_name_latin="Sidorova", first_name_latin="Anna"
    )
    PlayerFactory(last_name="Бот", first_name="Го", last_name_latin="Petrov", first_name_latin="Bot", is_bot=True)
    return petrov, sidorova


def test_search_finds_members_in_cyrillic_and_latin(director):
    go = create(director)
    petrov, _sidorova = _members()
    url = f"{EN}/{go.pk}/members.json"
    for query in ("петр", "Petrov", "PETR", "пётр петров", "petrov petr"):
        data = director.get(url, {"q": query}).json()
        assert [r["id"] for r in data["results"]] == [petrov.pk], query  # the bot named Petrov is no member
    row = director.get(url, {"q": "Петров"}).json()["results"][0]
    assert row == {
        "id": petrov.pk,
        "name": "Petrov Petr",
        "other_name": "Петров Пётр",
        "club": "Tengen",
        "city": "Москва",
        "dirs": 185,
        "rank": "3k",
        "registered": False,
    }
    russian = director.get(f"/go/{go.pk}/members.json", {"q": "sidorova"}).json()["results"]
    assert [(r["name"], r["other_name"], r["dirs"]) for r in russian] == [("Сидорова Анна", "Sidorova Anna", None)]
    assert director.get(url, {"q": "nobody"}).json()["results"] == []
    assert director.get(url, {"q": "   "}).json()["results"] == []
    assert director.get(url).json()["results"] == []


def test_search_returns_at_most_twenty_and_marks_the_registered(director, django_assert_max_num_queries):
    go = create(director)
    players = [
        PlayerFactory(last_name=f"Ким{i:02d}", first_name="Ли", last_name_latin=f"Kim{i:02d}", first_name_latin="Li")
        for i in range(45)
    ]
    DirsRating.objects.create(player=players[0], rating=100, initial_rating=100, declared_rank="11k")
    director.post(f"{EN}/{go.pk}/register/", {"player": players[0].pk})
    with django_assert_max_num_queries(8):
        data = director.get(f"{EN}/{go.pk}/members.json", {"q": "kim"}).json()
    assert data["limit"] == 20
    assert len(data["results"]) == 20
    assert [r["name"] for r in data["results"][:2]] == ["Kim00 Li", "Kim01 Li"]
    assert data["results"][0]["registered"] is True
    assert not any(r["registered"] for r in data["results"][1:])
    assert len(director.get(f"{EN}/{go.pk}/members.json", {"q": "kim4"}).json()["results"]) == 5


def test_search_is_for_the_directors_only(client):
    owner = organiser()
    client.force_login(owner)
    go = create(client)
    _members()
    url = f"{EN}/{go.pk}/members.json"
    client.logout()
    response = client.get(url, {"q": "petrov"})
    assert response.status_code == 302
    assert "login" in response["Location"]
    client.force_login(UserFactory())
    # A draft is its director's alone: others are told it does not exist.
    assert client.get(url, {"q": "petrov"}).status_code == 404
    client.force_login(organiser())  # an organiser, but of another tournament
    assert client.get(url, {"q": "petrov"}).status_code == 404
    assert client.get(f"{EN}/999999/members.json", {"q": "petrov"}).status_code in (403, 404)


def test_the_form_never_lists_every_member(director):
    go = create(director)
    petrov, _ = _members()
    PlayerFactory.create_batch(30)
    page = director.get(f"{EN}/{go.pk}/").content.decode()
    assert 'id="member-q"' in page
    assert f'value="{petrov.pk}"' not in page
    assert "Ivanov" not in page
    assert "js/go-register.js" in page


def test_without_javascript_search_then_choose_then_register(director):
    go = create(director)
    petrov, sidorova = _members()
    page = director.get(f"{EN}/{go.pk}/", {"member": "сидор"}).content.decode()
    assert f'name="player" value="{sidorova.pk}"' in page
    assert "Sidorova Anna" in page
    assert f'value="{petrov.pk}"' not in page
    assert "No member found." in director.get(f"{EN}/{go.pk}/", {"member": "zzz"}).content.decode()
    response = director.post(f"{EN}/{go.pk}/register/", {"player": petrov.pk, "surname": ""}, follow=True)
    assert "is registered" in response.content.decode()
    reg = Registration.objects.get(tournament=go, player=petrov)
    assert (reg.name, reg.name_latin, reg.rating, reg.rating_source) == ("Петров Пётр", "Petrov Petr", 1850, "dirs")
    page = director.get(f"{EN}/{go.pk}/", {"member": "petrov"}).content.decode()
    assert f'value="{petrov.pk}" id="member-{petrov.pk}" disabled' in page
    assert "registered" in page


def test_typed_names_and_bad_choices(director):
    go = create(director)
    _petrov, sidorova = _members()
    register(director, go, "Guest Player", 1500)
    assert Registration.objects.get(tournament=go, name="Guest Player").player is None
    response = director.post(f"{EN}/{go.pk}/register/", {"player": "", "surname": ""}, follow=True)
    assert "Choose a member or type a name." in response.content.decode()
    response = director.post(f"{EN}/{go.pk}/register/", {"player": 99999999}, follow=True)
    assert "Choose a member from the search results." in response.content.decode()
    response = director.post(f"{EN}/{go.pk}/register/", {"player": sidorova.pk, "surname": "Someone"}, follow=True)
    assert "not both" in response.content.decode()
    response = director.post(f"{EN}/{go.pk}/register/", {"player": sidorova.pk}, follow=True)
    assert "has no DIRS rating: type a rating." in response.content.decode()
    director.post(f"{EN}/{go.pk}/register/", {"player": sidorova.pk, "rating": 1700})
    assert Registration.objects.get(tournament=go, player=sidorova).rating == 1700
    assert Registration.objects.filter(tournament=go).count() == 2
