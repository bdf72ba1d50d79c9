"""Starting ratings and a tournament's own optional rules are staff's to set; the player's page says where a starting
rating comes from."""

import pytest

from ratings.models import RatingList, StartingRating
from tests.factories import PlayerFactory, TournamentFactory, federation_staff, organiser
from tests.tournaments.test_admin import _tournament_form
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def test_organisers_cannot_set_a_tournaments_optional_rules_and_staff_can(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, k=1)
    client.force_login(user)
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    response = client.post(url, _tournament_form(k="1", name=tournament.name, sqrt_rule="false", sealed_cap="true"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.sqrt_rule, tournament.sealed_cap) == (None, None)
    client.force_login(federation_staff())
    response = client.post(url, _tournament_form(k="1", name=tournament.name, sqrt_rule="false", sealed_cap="true"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.sqrt_rule, tournament.sealed_cap) == (False, True)


def test_starting_ratings_are_recorded_by_staff_only_with_who(client):
    player = PlayerFactory()
    rating_list = RatingList.objects.get(slug="gorbunov")
    data = {
        "rating_list": rating_list.pk,
        "player": player.pk,
        "list_date": "2019-01-01",
        "rating": "250",
        "acceleration": "",
        "max_rating": "",
        "league": "",
    }
    client.force_login(organiser())
    assert client.get("/admin/ratings/startingrating/").status_code == 403
    assert client.post("/admin/ratings/startingrating/add/", data).status_code == 403
    staff = federation_staff()
    client.force_login(staff)
    response = client.post("/admin/ratings/startingrating/add/", data)
    assert response.status_code == 302
    row = StartingRating.objects.get()
    assert (row.player, int(row.rating), row.recorded_by) == (player, 250, staff)


def test_the_player_page_says_the_rating_was_carried_over(client, import_doc):
    import_doc(
        {
            "system": "gorbunov",
            "ratings_date": "2019-01-01",
            "ratings": {"ann": 190},
            "players": [{"id": "ann", "name": "Петрова Анна", "name_latin": "Petrova Anna"}],
            "tournaments": [
                {
                    "id": "t1",
                    "date": "2019-03-07",
                    "k": 4,
                    "results": [{"player": p, "place": i + 1} for i, p in enumerate(["ann", "bob", "cid", "dan"])],
                }
            ],
        }
    )
    from federation.models import Player

    ann = Player.objects.get(external_id="ann")
    page = client.get(f"/en/players/{ann.pk}/").content.decode()
    assert "Starting rating 190, carried over from the federation's list of 1 Jan 2019." in page
    page = client.get(f"/players/{ann.pk}/").content.decode()
    assert "Начальный рейтинг 190 перенесён из списка федерации от 01.01.2019." in page
    assert Tournament.objects.get(external_id="t1").card_format == "constructed"
