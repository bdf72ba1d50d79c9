"""A bulk write the services make (a queryset's ``update()`` / ``bulk_update()``) changes the cached public pages at
once (``federation.versioning``): before, a page's version read only ids, history rows and ``updated_at``, and a
plain ``UPDATE`` left the old page in the cache."""

import pytest
from django.core.cache import cache
from django.db import transaction

from federation.models import PublicVersion
from federation.services import player_tournament_counts_refresh
from ratings.bulk import update_rows
from ratings.dirs.models import DirsRating
from tests.factories import PlayerFactory, ResultFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def _counter() -> int:
    row = PublicVersion.objects.filter(pk=1).first()
    return row.counter if row else 0


def test_a_result_moved_by_a_queryset_update_changes_the_players_page(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # the test's own transaction never commits
        result = ResultFactory(place=7)
    url = f"/en/players/{result.player_id}/"
    first = client.get(url)
    assert first.status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # The results editor and the player merge move results with one UPDATE (tournaments.services,
    # federation.services): no history row, no new id.
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        from tournaments.models import Result

        assert Result.objects.filter(pk=result.pk).update(place=2) == 1
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    assert '<td class="text-end text-nowrap">2</td>' in after.content.decode()
    assert '<td class="text-end text-nowrap">7</td>' in first.content.decode()


def test_the_dirs_import_writing_ratings_in_bulk_changes_the_leaderboard(client, django_capture_on_commit_callbacks):
    player = PlayerFactory(last_name_latin="Bulkov")
    DirsRating.objects.create(player=player, rating=150, initial_rating=150, declared_rank="10k", games=3)
    first = client.get("/en/go/dirs/")
    assert "150" in first.content.decode()
    # What ratings.dirs.history writes after an import (ratings.bulk.update_rows: one UPDATE ... FROM unnest on
    # PostgreSQL, bulk_update on SQLite), here without touching updated_at: the version must change all the same.
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        update_rows(DirsRating, "player_id", ["rating", "acceleration", "games"], [(player.pk, 213, 0, 4)])
    after = client.get("/en/go/dirs/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert "213" in after.content.decode()


def test_a_service_bumps_when_it_commits_and_a_rollback_bumps_nothing(django_capture_on_commit_callbacks):
    players = [PlayerFactory() for _ in range(2)]
    start = _counter()
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        player_tournament_counts_refresh(player_ids=[p.pk for p in players])  # one UPDATE a batch of players
        from federation.models import Player

        assert _counter() == start  # nothing before the commit
        Player.objects.filter(pk=players[0].pk).update(city="Тверь")
    assert len(callbacks) == 2
    assert _counter() == start + 2
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                Player.objects.filter(pk=players[1].pk).update(city="Казань")
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
    assert callbacks == []
    assert _counter() == start + 2


def test_deleting_one_dirs_rating_in_the_admin_changes_the_leaderboard(client, django_capture_on_commit_callbacks):
    """A single row deleted (the admin's delete page calls ``instance.delete()``, not the queryset's) bumps the
    version too: the deleted rating was not the newest, so nothing else the leaderboard's version reads moved."""
    first, _second = (
        DirsRating.objects.create(
            player=PlayerFactory(last_name_latin=name), rating=150, initial_rating=150, declared_rank="6k", games=0
        )
        for name in ("Firstov", "Secondov")
    )
    page = client.get("/en/go/dirs/")
    assert "Firstov" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        first.delete()
    after = client.get("/en/go/dirs/", HTTP_IF_NONE_MATCH=page["ETag"])
    assert after.status_code == 200
    assert "Firstov" not in after.content.decode()
    assert "Secondov" in after.content.decode()
