"""The venue's pages: content and bounded queries; the Go sections; the admin."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import PlayerFactory, TournamentFactory, organiser
from tournaments.go import selectors, services
from tournaments.go.models import GoTournament, Registration, Round
from tournaments.go.sections import tournament_section

from .helpers import EN, approve, today

pytestmark = pytest.mark.django_db


def _played(players: int, *, members: int = 0, rounds: int = 2) -> GoTournament:
    user = organiser()
    go = services.go_tournament_create(
        user=user,
        name="Pages",
        start_date=today(),
        end_date=today(),
        system="fus",
        rounds=rounds,
        half_stone=True,
        acceleration=True,
    )
    for i in range(players):
        if i < members:
            member = PlayerFactory(last_name_latin=f"Member{i:03d}", first_name_latin="Ivan")
            services.go_registration_add(go=go, player=member, rating=2000 - 7 * i)
        else:
            services.go_registration_add(go=go, name=f"Player {i:03d}", rating=2000 - 7 * i)
    rnd = services.go_round_pair(go=go)
    services.go_round_publish(go_round=rnd)
    for b in rnd.boards.all():
        services.go_result_enter(go_round=rnd, board_number=b.number, result="black")
    return approve(go)


@pytest.mark.parametrize("players", [4, 40])
def test_pages_use_a_bounded_number_of_queries(client, django_assert_max_num_queries, players):
    go = _played(players)
    with django_assert_max_num_queries(6):
        page = client.get(f"{EN}/{go.pk}/standings/")
    assert "Player 000" in page.content.decode()
    with django_assert_max_num_queries(7):
        page = client.get(f"{EN}/{go.pk}/rounds/1/")
    text = page.content.decode()
    assert "1 stone, no komi" in text or "even game" in text or "stones" in text
    assert "black wins" in text
    with django_assert_max_num_queries(8):
        assert client.get(f"{EN}/{go.pk}/").status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(f"{EN}/").status_code == 200
    reg = go.registrations.first()
    with django_assert_max_num_queries(9):  # one for the byes by request
        page = client.get(f"{EN}/{go.pk}/players/{reg.pk}/")
    assert page.status_code == 200


def test_a_draft_round_is_hidden_from_visitors(client):
    user = organiser()
    go = services.go_tournament_create(
        user=user,
        name="Draft",
        start_date=today(),
        end_date=today(),
        system="profs",
        rounds=2,
        half_stone=False,
        acceleration=False,
    )
    services.go_registration_add(go=go, name="A", rating=1000)
    services.go_registration_add(go=go, name="B", rating=900)
    services.go_round_pair(go=go)
    assert client.get(f"{EN}/{go.pk}/rounds/1/").status_code == 404
    client.force_login(user)
    assert client.get(f"{EN}/{go.pk}/rounds/1/").status_code == 200


def test_russian_pages_show_the_data(client):
    go = _played(4)
    page = client.get(f"/go/{go.pk}/standings/")
    assert page.status_code == 200
    assert "Player 000" in page.content.decode()


def test_tournament_section(rf):
    go = _played(2)
    html = tournament_section(rf.get("/"), go.tournament)
    assert f"/go/{go.pk}/rounds/1/" in html
    assert tournament_section(rf.get("/"), TournamentFactory()) is None


def test_admin_pages(admin_client):
    go = _played(4)
    for model in (GoTournament, Round, Registration):
        assert admin_client.get(f"/en/admin/go/{model._meta.model_name}/").status_code == 200
    rnd = Round.objects.get(tournament=go)
    assert admin_client.get(f"/en/admin/go/round/{rnd.pk}/change/").status_code == 200


def test_the_egd_table_is_read_in_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    """One query for the members' Latin names, whatever the size of the field (not one a registration)."""
    counts = []
    for players, members in ((4, 2), (30, 24)):
        go = _played(players, members=members, rounds=1)
        go = services.go_egd_class_set(go=go, egd_class="C")
        with CaptureQueriesContext(connection) as queries:
            text = selectors.egd_table(go=go)
        assert " Member000 Ivan " in text
        counts.append(len(queries))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(counts[1] + 1):
        response = client.get(f"{EN}/{go.pk}/egd.h9")
    assert response.status_code == 200
