"""The player page's Go section: the same HTML as the template it replaced (issue 16), in both languages.

``old_section`` is the section as it was rendered before it was written in Python: its template, copied here
verbatim, and the read that filled it. Each player below is rendered both ways and compared character by character.
"""

import datetime

import pytest
from django.template import engines
from django.test import RequestFactory
from django.utils import translation

from tests.factories import PlayerFactory, organiser
from tournaments.go.models import Registration
from tournaments.go.sections import player_section
from tournaments.go.services import go_registration_add, go_tournament_create
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db

OLD_TEMPLATE = (
    '{% load i18n fmt %}<h2 class="h4">{% translate "Go tournaments" %}</h2>\n'
    '<ul class="small">{% for reg in registrations %}'
    "<li><a href=\"{% url 'go:player_games' reg.tournament_id reg.pk %}\">"
    "{{ reg.tournament.tournament.name }}</a> ({{ reg.tournament.tournament.start_date|day }})</li>{% endfor %}</ul>\n"
)


def old_section(player) -> str | None:
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("tournament__tournament")
        .order_by("-tournament__tournament__start_date")[:50]
    )
    if not registrations:
        return None
    return engines["django"].from_string(OLD_TEMPLATE).render({"registrations": registrations, "player": player})


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


def assert_same(player):
    request = RequestFactory().get("/")
    for language in ("ru", "en"):
        with translation.override(language):
            assert player_section(request, player) == old_section(player), language


def test_no_registrations_no_section():
    user = organiser()
    go = tournament(user, "Кубок", datetime.date(2026, 3, 7))
    go_registration_add(go=go, name="Someone Else", rating=1500)
    player = PlayerFactory()
    assert player_section(RequestFactory().get("/"), player) is None
    assert_same(player)


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
    assert html.index("DIRS open") < html.index("Кубок Москвы")
    url = f"/en/go/{registration.tournament_id}/players/{registration.pk}/"
    assert f'<li><a href="{url}">DIRS open</a> (7 Sep 2025)</li>' in html
    assert "Cup &quot;&lt;Tengen&gt;&quot; &amp; Co" in html
    for someone in (player, other):
        assert_same(someone)


def test_the_fifty_newest(django_assert_num_queries):
    user = organiser()
    player = PlayerFactory()
    for i in range(51):
        go = tournament(user, f"Этап {i}", datetime.date(2024, 1, 1) + datetime.timedelta(days=7 * i))
        go_registration_add(go=go, player=player, rating=1500)
    request = RequestFactory().get("/")
    with django_assert_num_queries(1):
        html = player_section(request, player)
    assert html.count("<li>") == 50
    assert "Этап 50<" in html
    assert "Этап 0<" not in html
    assert_same(player)
