"""``federation.selectors.places_of``: the cities and countries of a set of players that differs by one id (the
players of a mahjong snapshot), its statement built once per process: each id gets its own players' places."""

import pytest

from federation.selectors import places_of
from ratings.mahjong.selectors import snapshot_places
from ratings.models import RatingEntry, RatingList, RatingSnapshot
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _entries_of(snapshot_id: int):
    return RatingEntry.objects.filter(snapshot_id=snapshot_id)


def test_each_snapshot_offers_the_places_of_its_own_players(postgres):
    rating_list = RatingList.objects.get(slug="mahjong-rr")
    older = RatingSnapshot.objects.create(rating_list=rating_list, as_of="2026-10-01")
    newer = RatingSnapshot.objects.create(rating_list=rating_list, as_of="2026-11-01")
    tula = PlayerFactory(city="Тула", country="RU")
    minsk = PlayerFactory(city="Минск", country="BY")
    kazan = PlayerFactory(city="Казань", country="RU")
    PlayerFactory(city="Омск", country="RU")  # in no list
    for snapshot, players in ((older, [tula, minsk]), (newer, [kazan, tula])):
        for rank, player in enumerate(players, start=1):
            RatingEntry.objects.create(snapshot=snapshot, player=player, rank=rank, rating=500, delta=0, events=1)

    # The second call reuses the statement the first one built, with the other snapshot's id.
    assert places_of(shape="test-snapshot", rows=_entries_of, key=older.pk) == (["Минск", "Тула"], ["BY", "RU"])
    assert places_of(shape="test-snapshot", rows=_entries_of, key=newer.pk) == (["Казань", "Тула"], ["RU"])
    assert snapshot_places(snapshot=older) == (["Минск", "Тула"], ["BY", "RU"])
    assert snapshot_places(snapshot=newer) == (["Казань", "Тула"], ["RU"])
