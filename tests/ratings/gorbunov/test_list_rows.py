"""A list as of any week (``selectors.list_rows``) is each player's newest entry up to that week, ranked among them
(one more than the number rated higher: equal ratings, equal ranks), with the change of that week (0 for a player
who did not move, None for a newcomer), worked out here from every entry; and the page shows those numbers."""

import datetime

import pytest

from ratings.gorbunov import selectors, services
from ratings.models import RatingEntry, RatingSnapshot
from tests.factories import PlayerFactory
from tests.ratings.gorbunov.conftest import make_tournament, week

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(gorbunov_list, season, field):
    newcomer = PlayerFactory(last_name_latin="Novikov")  # first rated in the last week
    make_tournament([newcomer, *field[:7]], week(5) + datetime.timedelta(days=3))
    for n in range(1, 7):
        services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(n))
    return gorbunov_list


def _expected(snapshot) -> dict[int, tuple]:
    """player id -> (rank, rating, change) as of ``snapshot``, from every entry of the list up to it."""
    newest = {}
    for entry in RatingEntry.objects.filter(
        snapshot__rating_list=snapshot.rating_list, snapshot__as_of__lte=snapshot.as_of
    ).order_by("snapshot__as_of"):
        newest[entry.player_id] = entry
    ratings = [entry.rating for entry in newest.values()]
    return {
        player: (
            1 + sum(r > entry.rating for r in ratings),
            entry.rating,
            entry.delta if entry.snapshot_id == snapshot.pk else 0,
        )
        for player, entry in newest.items()
    }


def test_every_week_gives_every_players_newest_entry_rank_and_change(published):
    snapshots = list(RatingSnapshot.objects.filter(rating_list=published).order_by("as_of"))
    assert len(snapshots) == 6
    moved = tied = 0
    for snapshot in snapshots:
        rows = selectors.list_rows(snapshot=snapshot, newest=snapshot == snapshots[-1])
        got = {e.player_id: (rows.rank(e), e.rating, e.change) for e in rows.entries.order_by("-rating", "player_id")}
        expected = _expected(snapshot)
        assert got == expected
        ranks = [rank for rank, _rating, _change in expected.values()]
        tied += len(set(ranks)) < len(ranks)
        moved += sum(change not in (0, None) for _rank, _rating, change in expected.values())
    assert tied  # ties share a rank
    assert moved
    newest = snapshots[-1]
    assert None in [change for _rank, _rating, change in _expected(newest).values()]  # the newcomer


def test_an_older_weeks_page_shows_its_ranks_changes_and_names_in_rank_order(client, published):
    snapshot = RatingSnapshot.objects.get(rating_list=published, as_of=week(3))
    expected = sorted(_expected(snapshot).items(), key=lambda item: (-item[1][1], item[0]))[5:10]
    content = client.get("/en/ratings/cards/gorbunov/", {"week": "2026-W13", "per_page": 5, "page": 2}).content
    content = content.decode()
    positions = [content.index(f'href="/en/players/{player}/"') for player, _numbers in expected]
    assert positions == sorted(positions)
    for player, (rank, rating, change) in expected:
        row = content[content.rindex("<tr", 0, content.index(f"/en/players/{player}/")) :].split("</tr>", 1)[0]
        assert f'<td class="text-end text-nowrap">{rank}</td>' in row
        assert f'<td class="col-rating text-end text-nowrap">{int(rating)}</td>' in row
        shown = "new" if change is None else "0" if change == 0 else f"{int(change):+d}"
        assert f'<td class="text-end text-nowrap">{shown}</td>' in row


def test_a_newcomer_is_new_in_both_languages(client, published):
    en = client.get("/en/ratings/cards/gorbunov/", {"q": "Novikov"}).content.decode()
    assert '<td class="text-end text-nowrap">new</td>' in en
    ru = client.get("/ratings/cards/gorbunov/", {"q": "Novikov"}).content.decode()
    assert '<td class="text-end text-nowrap">новый</td>' in ru
    csv = client.get("/en/ratings/cards/gorbunov/", {"q": "Novikov", "_export": "csv"}).content.decode("utf-8-sig")
    assert csv.splitlines()[1].split(",")[4] == ""  # no change: an empty cell
