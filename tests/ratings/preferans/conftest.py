import datetime
import json

import pytest

from ratings.preferans.models import PreferansRating
from ratings.preferans.services import game_server_create
from tests.factories import PlayerFactory


@pytest.fixture
def server(db):
    server, token = game_server_create(name="SmartServer")
    server.token = token
    return server


@pytest.fixture
def post(client):
    def send(path, payload, token, **extra):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        body = payload if isinstance(payload, str | bytes) else json.dumps(payload)
        return client.post(path, body, content_type="application/json", **headers, **extra)

    return send


def rated(rating, **kwargs):
    """A player with a preferans rating already held."""
    player = PlayerFactory(**kwargs)
    PreferansRating.objects.create(
        player=player, rating=rating, max_rating=rating, league="pro" if rating >= 1800 else "amateur"
    )
    return player


WHEN = datetime.datetime(2026, 3, 7, 19, tzinfo=datetime.UTC)


def random_deals(rng, tables, count):
    """``count`` deals as (table index, whists) at random tables of ``tables``, whists summing to zero."""
    deals = []
    for _ in range(count):
        key = rng.randrange(len(tables))
        table = tables[key]
        whists = [rng.randint(-20, 20) for _ in table[:-1]]
        whists.append(-sum(whists))
        deals.append((key, dict(zip(table, whists, strict=True))))
    return deals
