"""The registry's and the tournaments' public pages are fresh at once after a service writes: the players' list, a
player's page, the tournaments' list and a tournament's page are cached (``federation.caching``), so every write
they show must move a version when it commits (``federation.versions``), the bulk ones included.

A test's transaction never commits: a write that must show runs its commit callbacks, as a real request does."""

import pytest

from federation.models import Player
from federation.services import player_merge, player_tournament_counts_refresh
from tests.factories import PlayerFactory, ResultFactory, TournamentFactory, federation_staff
from tournaments.models import TournamentStatus
from tournaments.services import tournament_approve

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _count_cell(client, player) -> str:
    text = client.get("/players/").content.decode()  # stored in the cache (a search is not)
    row = text.split(f'href="/players/{player.pk}/"')[1].split("</tr>")[0]
    return row.rsplit('<td class="text-end text-nowrap">', 1)[1].split("</td>")[0]


def test_the_players_list_shows_recounted_tournaments_at_once(client, committed):
    player = PlayerFactory(last_name="Счётов")
    ResultFactory(player=player)
    ResultFactory(player=player)
    Player.objects.filter(pk=player.pk).update(tournament_count=0)  # as if counted before: no version moves
    assert _count_cell(client, player) == "0"
    with committed():
        player_tournament_counts_refresh(player_ids=[player.pk])  # an UPDATE: no signal, the service bumps
    assert _count_cell(client, player) == "2"
    Player.objects.filter(pk=player.pk).update(tournament_count=7)
    with committed():
        player_tournament_counts_refresh()  # every player
    assert _count_cell(client, player) == "2"


def test_a_merge_shows_on_the_kept_players_page_and_the_tournaments_page_at_once(client, committed):
    keep = PlayerFactory(last_name="Оставлен")
    other = PlayerFactory(last_name="Дубликат")
    result = ResultFactory(player=other, tournament__name="Кубок слияния")
    tournament_page = f"/tournaments/{result.tournament_id}/"
    assert "Кубок слияния" not in client.get(f"/players/{keep.pk}/").content.decode()
    assert "Дубликат" in client.get(tournament_page).content.decode()
    with committed():
        player_merge(keep=keep, duplicates=[keep, other], user=federation_staff())
    assert "Кубок слияния" in client.get(f"/players/{keep.pk}/").content.decode()
    text = client.get(tournament_page).content.decode()
    assert "Оставлен" in text
    assert "Дубликат" not in text
    assert client.get(f"/players/{other.pk}/").status_code == 404


def test_an_approved_tournament_shows_in_the_list_and_on_its_page_at_once(client, committed):
    tournament = TournamentFactory(name="Кубок ожидания", status=TournamentStatus.SUBMITTED)
    ResultFactory(tournament=tournament, place=1)
    assert "Кубок ожидания" not in client.get("/tournaments/").content.decode()
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 404
    with committed():
        tournament_approve(tournament=tournament, user=federation_staff())
    assert "Кубок ожидания" in client.get("/tournaments/").content.decode()
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 200
