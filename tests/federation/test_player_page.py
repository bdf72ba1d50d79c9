"""A player's page built around "where do I stand" (issue 28): a card per rating the player holds at the top, each
discipline's details folded below, the long histories newest first, in a bounded number of queries. Read on a small
demo federation (``demo_data``), where the players are rated in every discipline through the services."""

import re
from io import StringIO

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import transaction
from django.db.models import Count, Max

from federation.models import Player
from federation.sections import sparkline_points
from ratings.dirs.models import DirsRating
from ratings.models import Engine, RatingChange, RatingEntry, RatingList
from ratings.preferans.models import PreferansRating

#: The most queries of a cold player's page whatever the player's history: the page's own (the player, the results,
#: the identity) and each discipline's few (``federation.sections``). Measured 20 for a player in every discipline.
PLAYER_PAGE_QUERIES = 22


def ratings_held(player: Player) -> int:
    """Every rating the player holds: the Gorbunov lists they are in, the mahjong lists whose newest publication
    lists them, DIRS and preferans."""
    gorbunov = (
        RatingEntry.objects.filter(player=player, snapshot__rating_list__engine=Engine.GORBUNOV)
        .filter(snapshot__rating_list__is_active=True)
        .values("snapshot__rating_list")
        .distinct()
        .count()
    )
    mahjong = 0
    for rating_list in RatingList.objects.filter(engine__startswith="mahjong", is_active=True):
        newest = rating_list.snapshots.aggregate(day=Max("as_of"))["day"]
        mahjong += RatingEntry.objects.filter(
            player=player, snapshot__rating_list=rating_list, snapshot__as_of=newest
        ).exists()
    dirs = DirsRating.objects.filter(player=player).exists()
    preferans = PreferansRating.objects.filter(player=player).exists()
    return gorbunov + mahjong + dirs + preferans


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("demo_data", "--players", "60", "--years", "1", "--force", stdout=StringIO())
        yield
        transaction.set_rollback(True)


@pytest.fixture
def busiest(demo, db):
    return Player.objects.annotate(n=Count("results")).order_by("-n", "pk").first()


def _page(client, player, language="ru", **params) -> str:
    caches["default"].clear()
    prefix = "/en" if language == "en" else ""
    response = client.get(f"{prefix}/players/{player.pk}/", params)
    assert response.status_code == 200
    return response.content.decode()


def _cards(html: str) -> list[str]:
    return re.findall(r'<div class="card h-100 rating-card">(.*?)</div>\n</div></div>', html, re.S)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_card_for_every_rating_held_before_the_details(client, busiest, language):
    html = _page(client, busiest, language)
    cards = _cards(html)
    assert len(cards) == ratings_held(busiest) >= 3
    # The cards come first, then the folded sections, then the results.
    assert html.index("rating-card") < html.index('id="gorbunov"') < html.index('id="results"')
    newest = (
        RatingEntry.objects.filter(player=busiest, snapshot__rating_list__slug="gorbunov")
        .order_by("-snapshot__as_of")
        .first()
    )
    gorbunov = next(
        card for card in cards if 'href="' + ("/en" if language == "en" else "") + '/ratings/cards/gorbunov/"' in card
    )
    assert f'<span class="rating-value col-rating">{int(newest.rating)}</span>' in gorbunov
    assert f"&nbsp;{newest.rank}</span>" in gorbunov
    if newest.delta is None:
        assert ("new in the list" if language == "en" else "новый в списке") in gorbunov
    else:
        assert re.search(r"</abbr> [+-]?\d+</p>", gorbunov)
    assert all("<polyline points=" in card for card in cards)  # every rating has a history
    # Folded: the charts and tables are inside closed <details>, which need no script to open.
    assert html.count('class="mb-2 gorbunov-rating player-fold"') >= 1
    assert " open>" not in html.split('id="results"')[0]


def test_the_results_unfold_when_paged_or_sorted(client, busiest):
    assert '<details class="player-fold">' in _page(client, busiest)
    assert '<details class="player-fold" open>' in _page(client, busiest, sort="place")


def test_gorbunov_changes_newest_first_the_older_folded_once_more(client, busiest):
    html = _page(client, busiest, "en")
    section = html[html.index('id="gorbunov-gorbunov"') :]
    section = section[: section.index("</details>\n\n")]
    changes = RatingChange.objects.filter(player=busiest, rating_list__slug="gorbunov").count()
    days = re.findall(r'<td class="text-nowrap d-none d-sm-table-cell">(\d+ \w+ \d{4})</td>', section)
    assert len(days) == changes
    if changes > 10:
        assert f"{changes - 10} earlier change" in section
    # Short headers with their full names, and the formula's numbers folded under the tournament on a phone.
    assert '<abbr class="term" title="place" tabindex="0"><span aria-hidden="true">M</span>' in section
    assert '<abbr class="term" title="rating before" tabindex="0"><span aria-hidden="true">Rs</span>' in section
    assert '<span class="d-md-none">place ' in section


def test_the_player_page_reads_a_bounded_number_of_queries(client, busiest, django_assert_max_num_queries):
    dirs = Player.objects.filter(pk__in=DirsRating.objects.values("player_id")).order_by("pk").first()
    preferans = Player.objects.filter(pk__in=PreferansRating.objects.values("player_id")).order_by("pk").first()
    assert dirs is not None
    assert preferans is not None
    for player in (busiest, dirs, preferans):
        caches["default"].clear()
        with django_assert_max_num_queries(PLAYER_PAGE_QUERIES):
            assert client.get(f"/players/{player.pk}/").status_code == 200


def test_the_sparkline_runs_through_the_history():
    assert sparkline_points([5]) == ""  # one point is no line
    flat = sparkline_points([3, 3, 3], width=100, height=20).split()
    assert flat == ["0.0,10.0", "50.0,10.0", "100.0,10.0"]
    rising = [tuple(map(float, p.split(","))) for p in sparkline_points([1, 2, 3], width=100, height=20).split()]
    assert [x for x, _y in rising] == [0.0, 50.0, 100.0]
    assert rising[0][1] > rising[1][1] > rising[2][1]  # the highest rating at the top
    assert len(sparkline_points(range(200)).split()) == 60  # the newest 60 points
