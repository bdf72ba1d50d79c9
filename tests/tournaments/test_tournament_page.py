"""A mahjong tournament's public page (issue 28): the number of participants once, no column left empty, and the
accreditation without the login of the staff member who gave it."""

import datetime

import pytest
from django.core.cache import caches

from tests.factories import ResultFactory, TournamentFactory, federation_staff
from tournaments.models import Discipline

pytestmark = pytest.mark.django_db


@pytest.fixture
def mahjong():
    staff = federation_staff(username="vera.staff")
    tournament = TournamentFactory(
        discipline=Discipline.MAHJONG,
        hanchans=8,
        participants=12,
        accredited=True,
        accredited_by=staff,
        accredited_at=datetime.datetime(2026, 3, 9, 10, 39, tzinfo=datetime.UTC),  # 13:39 in Moscow
    )
    for place in range(1, 13):
        ResultFactory(tournament=tournament, place=place)
    caches["default"].clear()
    return tournament


def _page(client, tournament, language="ru") -> str:
    caches["default"].clear()
    prefix = "/en" if language == "en" else ""
    response = client.get(f"{prefix}/tournaments/{tournament.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_public_sees_when_it_was_accredited_not_who(client, mahjong):
    html = _page(client, mahjong)
    assert "vera.staff" not in html
    assert "Аккредитован 09.03.2026." in html
    assert "vera.staff" not in _page(client, mahjong, "en")


def test_participants_once_and_no_empty_columns(client, mahjong):
    html = _page(client, mahjong)
    assert html.count('<dt class="col-5 col-sm-3">Участники') == 1
    assert "(N)" not in html
    assert ">Замена<" not in html  # nobody substituted
    assert "sort=hanchans_played" not in html  # nobody's hanchans entered


def test_a_substitute_and_the_hanchans_bring_their_columns_back(client, mahjong):
    first = mahjong.results.order_by("place").first()
    first.substitute = True
    first.hanchans_played = 6
    first.save()
    html = _page(client, mahjong)
    assert ">Замена<" in html
    assert "sort=hanchans_played" in html
    assert '<td class="d-md-table-cell d-none text-end">6</td>' in html


def test_a_declared_n_other_than_the_results_is_said_once(client, mahjong):
    mahjong.participants = 14
    mahjong.save()
    html = _page(client, mahjong, "en")
    assert '12 <span class="text-muted">(N = 14 in the rating' in html
