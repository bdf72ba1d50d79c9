"""An older week's list read a page at a time in rank order (``selectors.past_week_page``, issue 16) gives the same
rows and ranks as ranking every player's newest entry up to that week (``ListView``, the way every other order and
the download still read it)."""

import pytest

from ratings.gorbunov import selectors, services
from ratings.models import RatingSnapshot
from tests.ratings.gorbunov.conftest import week

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(gorbunov_list, season):
    for n in range(1, 7):
        services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(n))
    return gorbunov_list


def _ranked_every_player(snapshot):
    view = selectors.list_view(snapshot=snapshot)
    entries = list(view.entries.order_by("-rating", "player_id"))
    return [(entry.player_id, entry.rating, view.rank(entry), view.delta(entry)) for entry in entries]


@pytest.mark.parametrize("limit", [1, 3, 5, 50])
def test_every_page_of_every_older_week_matches_the_full_ranking(published, limit):
    snapshots = list(RatingSnapshot.objects.filter(rating_list=published).order_by("as_of"))
    assert len(snapshots) == 6
    checked = 0
    for snapshot in snapshots[:-1]:  # the newest has its ranks stored
        expected = _ranked_every_player(snapshot)
        view = selectors.list_view(snapshot=snapshot)
        assert not view.newest
        got = []
        for offset in range(0, len(expected), limit):
            page = selectors.past_week_page(snapshot=snapshot, offset=offset, limit=limit)
            got += [(e.player_id, e.rating, view.rank(e), view.delta(e)) for e in page]
        assert got == expected
        checked += len(got)
    assert checked > 30
    # Ties share a rank, and the rank after a tie skips (1, 2, 2, 4), as in the full ranking.
    ranks = [rank for snapshot in snapshots[:-1] for _pid, _r, rank, _d in _ranked_every_player(snapshot)]
    assert len(set(ranks)) < len(ranks)


def test_a_past_week_page_shows_ranks_and_names_in_rank_order(client, published, field):
    response = client.get("/en/ratings/cards/gorbunov/", {"week": "2026-W12", "per_page": 5, "page": 2})
    assert response.status_code == 200
    snapshot = RatingSnapshot.objects.get(rating_list=published, as_of=week(2))
    expected = _ranked_every_player(snapshot)[5:10]
    content = response.content.decode()
    positions = [content.index(f"/en/players/{pid}/") for pid, _r, _rank, _d in expected]
    assert positions == sorted(positions)
    assert f'<td class="text-end text-nowrap">{expected[0][2]}</td>' in content
