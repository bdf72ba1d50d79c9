"""The leaderboard's per-league counts: the rating rows of people (no bots), whatever wrote them."""

import pytest

from federation.models import Player
from ratings.preferans.models import League, PreferansRating
from ratings.preferans.selectors import league_counts
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _counted() -> dict[str, int]:
    people = PreferansRating.objects.filter(player__is_bot=False)
    return {value: people.filter(league=value).count() for value, _label in League.choices}


def _rate(player, league=League.AMATEUR, rating=1200.0):
    return PreferansRating.objects.create(player=player, rating=rating, max_rating=rating, league=league)


def test_the_counts_follow_every_kind_of_write():
    first, second, third = PlayerFactory(), PlayerFactory(), PlayerFactory()
    _rate(first)
    _rate(second)
    _rate(third, League.PRO)
    assert league_counts() == _counted() == {"amateur": 2, "pro": 1}

    rating = PreferansRating.objects.get(player=first)
    rating.league = League.PRO  # a deal promoting a player saves the row
    rating.save()
    assert league_counts() == _counted() == {"amateur": 1, "pro": 2}

    PreferansRating.objects.filter(league=League.PRO).update(league=League.AMATEUR)  # one statement, two rows
    assert league_counts() == _counted() == {"amateur": 3, "pro": 0}

    PreferansRating.objects.filter(player=second).update(rating=1500.0)  # no league moved: nothing counted
    assert league_counts() == {"amateur": 3, "pro": 0}

    Player.objects.filter(pk=third.pk).update(is_bot=True)  # a bot is not counted
    assert league_counts() == _counted() == {"amateur": 2, "pro": 0}
    Player.objects.filter(pk=third.pk).update(is_bot=False)
    assert league_counts() == _counted() == {"amateur": 3, "pro": 0}

    bot = PlayerFactory(is_bot=True)
    _rate(bot, League.PRO)
    PreferansRating.objects.bulk_create(
        [PreferansRating(player=PlayerFactory(), rating=1300.0, max_rating=1300.0, league=League.PRO) for _ in range(4)]
    )
    assert league_counts() == _counted() == {"amateur": 3, "pro": 4}

    PreferansRating.objects.filter(player=first).delete()
    second.delete()  # the player's rating row goes with them
    assert league_counts() == _counted() == {"amateur": 1, "pro": 4}


def test_the_leaderboard_tabs_show_the_counts(client):
    for n in range(3):
        _rate(PlayerFactory(last_name=f"Игрок{n}"), League.PRO, 1600.0 + n)
    _rate(PlayerFactory(last_name="Бот", is_bot=True), League.PRO)
    page = client.get("/en/preferans/", {"league": "pro"}).content.decode()
    assert 'Pro <span class="badge text-bg-secondary">3</span>' in page
    assert 'Amateur <span class="badge text-bg-secondary">0</span>' in page
