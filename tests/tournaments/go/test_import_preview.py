"""The players' import preview (issue 27): a negative rating counts as 0 and the preview says so (before, the preview
passed it and the confirmation failed); a rating off the scale is shown on its row before anything is confirmed; a
namesake member is not pre-selected on the name alone when the file's club or country disagree."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import ClubFactory, PlayerFactory, organiser
from tournaments.go.models import Registration

from .helpers import EN, create

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    client.force_login(organiser(username="preview-director"))
    return client


def _preview(client, go, name: str, content: bytes) -> str:
    return client.post(f"{EN}/{go.pk}/import/", {"file": SimpleUploadedFile(name, content)}).content.decode()


def _row(page: str, line: int) -> str:
    return page.split(f'<tr id="row{line}">')[1].split("</tr>")[0]


def _confirm(client, go, page: str, **choices):
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    return client.post(f"{EN}/{go.pk}/import/", {"confirm": "1", "sha256": sha256, **choices}, follow=True)


def test_a_negative_rating_counts_as_zero_and_the_preview_says_so(director):
    go = create(director, name="Below zero")
    content = b"surname,first_name,rating,rank\nMinus,Ann,-150,\nWeak,Bob,,25k\nStrong,Cid,1500,\n"
    page = _preview(director, go, "list.csv", content)
    assert "line 2: rating -150 is below 0 and counts as 0 (rules, part 1)" in _row(page, 2)
    assert "line 3: 25k is weaker than 21 kyu and counts as rating 0" in _row(page, 3)
    assert 'id="notes"' in page  # and above the table
    response = _confirm(director, go, page)
    assert "3 players registered from list.csv." in response.content.decode()
    ratings = dict(Registration.objects.filter(tournament=go).values_list("name", "rating"))
    assert ratings == {"Minus Ann": 0, "Weak Bob": 0, "Strong Cid": 1500}


def test_a_rating_off_the_scale_is_shown_on_its_row_before_confirming(director):
    go = create(director, name="Too strong")
    page = _preview(director, go, "list.csv", b"surname,first_name,rating\nHigh,Hal,4000\nOk,Olga,1500\n")
    assert "line 2: rating 4000 is outside the tournament scale (0..3000)" in _row(page, 2)
    response = _confirm(director, go, page)
    assert "line 2: rating 4000 is outside the tournament scale (0..3000)" in response.content.decode()
    assert not Registration.objects.filter(tournament=go).exists()


def test_a_namesake_is_not_chosen_when_the_club_and_city_disagree(director):
    """The file's Petrov Ivan plays for a Tver club; the only member of that name lives in Sochi (before: chosen on
    the name alone). Kim Anna's club is the member's: she is chosen."""
    sochi = PlayerFactory(last_name="Петров", first_name="Иван", last_name_latin="Petrov", city="Сочи")
    kim = PlayerFactory(
        last_name="Ким", first_name="Анна", last_name_latin="Kim", first_name_latin="Anna",
        club=ClubFactory(name="Тэнгэн", city="Тверь"), city="Тверь",
    )  # fmt: skip
    foreign = PlayerFactory(
        last_name="Smith", first_name="John", last_name_latin="Smith", first_name_latin="John", country="GB", city=""
    )
    go = create(director, name="Namesakes")
    h9 = (
        b"; CL[C]\n; EV[Spring]\n;\n"
        b"  1 Petrov Ivan 5k RU Tver 0+\n"
        b"  2 Kim    Anna 3k RU Tver 0-\n"
        b"  3 Smith  John 2k US NY   0-\n"
    )
    page = _preview(director, go, "spring.h9", h9)
    petrov = _row(page, 4)
    assert f'value="{sochi.pk}"' in petrov  # offered...
    assert "selected" not in petrov.split('value="name"')[0]  # ...not chosen
    assert '<option value="name" selected>' in petrov
    assert "the club or country differ: choose if it is them" in petrov
    assert f'<option value="{kim.pk}" selected>' in _row(page, 5)
    assert '<option value="name" selected>' in _row(page, 6)  # another country
    assert f'value="{foreign.pk}"' in _row(page, 6)
    _confirm(director, go, page)
    members = dict(Registration.objects.filter(tournament=go).values_list("name", "player_id"))
    assert members == {"Petrov Ivan": None, "Ким Анна": kim.pk, "Smith John": None}
