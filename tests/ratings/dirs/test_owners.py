"""A DIRS rating is changed afterwards only by the organiser who set it and by staff (issue 27): another club's
organiser does not move a player to their club or rewrite the rank they declared."""

import pytest

from ratings.dirs.models import DirsRating
from tests.factories import ClubFactory, PlayerFactory, federation_staff, organiser

pytestmark = pytest.mark.django_db


def _change(client, rating, **data):
    return client.post(f"/admin/dirs/dirsrating/{rating.pk}/change/", {"declared_rank": "1d", "club": "", **data})


def test_the_rating_set_on_the_page_is_its_organisers(client):
    me = organiser()
    player = PlayerFactory()
    client.force_login(me)
    response = client.post("/en/go/dirs/ratings/new/", {"player": player.pk, "rank": "3k"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert DirsRating.objects.get(player=player).entered_by == me


def test_another_organiser_reads_but_does_not_change_a_rating(client):
    mine, theirs = organiser(username="me"), organiser(username="them")
    club = ClubFactory()
    player = PlayerFactory()
    client.force_login(theirs)
    client.post("/admin/dirs/dirsrating/add/", {"player": player.pk, "declared_rank": "3k", "club": club.pk})
    rating = DirsRating.objects.get(player=player)
    assert rating.entered_by == theirs
    client.force_login(mine)
    assert client.get(f"/admin/dirs/dirsrating/{rating.pk}/change/").status_code == 200  # read-only
    assert _change(client, rating).status_code == 403
    rating.refresh_from_db()
    assert (rating.declared_rank, rating.club_id) == ("3k", club.pk)
    client.force_login(theirs)
    assert _change(client, rating).status_code == 302
    client.force_login(federation_staff())
    assert _change(client, rating, declared_rank="2k", club=club.pk).status_code == 302
    rating.refresh_from_db()
    assert rating.declared_rank == "2k"


def test_a_rating_added_in_the_admin_with_a_bad_rank_or_twice_is_a_form_error(client):
    """Adding a rating in the admin was a 500 (the admin wrote its message about an object the service had not
    filled in); a bad rank is now an error beside the field, and a second rating for the player too."""
    player = PlayerFactory()
    client.force_login(organiser())
    bad = client.post("/en/admin/dirs/dirsrating/add/", {"player": player.pk, "declared_rank": "99z"})
    assert bad.status_code == 200
    assert bad.context["adminform"].form.errors["declared_rank"]
    good = client.post("/en/admin/dirs/dirsrating/add/", {"player": player.pk, "declared_rank": "3k"})
    assert good.status_code == 302
    again = client.post("/en/admin/dirs/dirsrating/add/", {"player": player.pk, "declared_rank": "2k"})
    assert again.status_code == 200
    assert again.context["adminform"].form.errors
    assert DirsRating.objects.get(player=player).declared_rank == "3k"
