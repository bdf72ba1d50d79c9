"""The player page's Go section: the tournaments the player was registered in, newest first, linked to their games."""

import datetime

import pytest
from django.test import RequestFactory
from django.utils import translation

from tests.factories import PlayerFactory, organiser
from tournaments.go.sections import player_section
from tournaments.go.services import go_registration_add, go_tournament_create
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def tournament(user, name: str, day: datetime.date, system: str = "fus"):
    """An approved tournament: the section lists those only (a draft is its director's alone, issue 27)."""
    go = go_tournament_create(
        user=user,
        name=name,
        start_date=day,
        end_date=day + datetime.timedelta(days=1),
        system=system,
        rounds=5,
        half_stone=True,
        acceleration=True,
    )
    Tournament.objects.filter(pk=go.pk).update(status=TournamentStatus.APPROVED)
    return go


def test_no_registrations_no_section():
    user = organiser()
    go = tournament(user, "Кубок", datetime.date(2026, 3, 7))
    go_registration_add(go=go, name="Someone Else", rating=1500)
    player = PlayerFactory()
    assert player_section(RequestFactory().get("/"), player) is None


def test_registrations_in_several_tournaments_newest_first():
    user = organiser()
    player = PlayerFactory()
    other = PlayerFactory()
    names = ["Кубок Москвы", 'Cup "<Tengen>" & Co', "Осенний турнир", "Winter's Go", "DIRS open"]
    for i, name in enumerate(names):
        go = tournament(user, name, datetime.date(2025, 1 + 2 * i, 3 + i), system="dirs" if i == 4 else "fus")
        registration = go_registration_add(go=go, player=player, rating=150 if i == 4 else 1200 + i)
        if i % 2:
            go_registration_add(go=go, player=other, rating=100)
    with translation.override("en"):
        html = player_section(RequestFactory().get("/"), player)
    assert html.index("DIRS open") < html.index("Kubok Moskvy")  # the English page: Latin letters
    url = f"/en/go/{registration.tournament_id}/players/{registration.pk}/"
    assert f'<li><a href="{url}">DIRS open</a> (7 Sep 2025)</li>' in html
    assert "Cup &quot;&lt;Tengen&gt;&quot; &amp; Co" in html
    assert player_section(RequestFactory().get("/"), other).count("<li>") == 2


def test_the_fifty_newest(django_assert_max_num_queries):
    user = organiser()
    player = PlayerFactory()
    for i in range(51):
        go = tournament(user, f"Этап {i}", datetime.date(2024, 1, 1) + datetime.timedelta(days=7 * i))
        go_registration_add(go=go, player=player, rating=1500)
    request = RequestFactory().get("/")
    with django_assert_max_num_queries(1), translation.override("ru"):
        html = player_section(request, player)
    assert html.count("<li>") == 50
    assert "Этап 50<" in html
    assert "Этап 0<" not in html
