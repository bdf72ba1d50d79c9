"""A public page sends the same ``Vary`` rendered and from the cache, without ``Cookie`` (``federation.caching``): the
language comes from the address, so a CDN may keep one copy per address; a signed-in visitor's page stays private."""

import pytest
from django.core.cache import cache

from ratings.dirs.models import DirsRating
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def _vary(response) -> list[str]:
    return sorted(part.strip() for part in response.get("Vary", "").split(",") if part.strip())


@pytest.mark.parametrize("url", ["/go/dirs/", "/en/go/dirs/"])
def test_the_dirs_leaderboard_varies_alike_rendered_and_cached_and_never_on_cookie(client, url):
    player = PlayerFactory(last_name="Варин", last_name_latin="Varin")
    DirsRating.objects.create(player=player, rating=150, initial_rating=150, declared_rank="10k", games=3)
    rendered = client.get(url)  # its view asks whether the visitor may record games: the session was read
    cached = client.get(url)
    assert rendered.status_code == cached.status_code == 200
    assert cached.content == rendered.content
    assert "Cookie" not in _vary(rendered)
    assert _vary(cached) == _vary(rendered)
    assert rendered["Cache-Control"] == cached["Cache-Control"] == "public, no-cache"
    not_modified = client.get(url, HTTP_IF_NONE_MATCH=rendered["ETag"])
    assert not_modified.status_code == 304
    assert "Cookie" not in _vary(not_modified)


def test_a_signed_in_visitors_page_is_private_and_varies_on_cookie(client):
    player = PlayerFactory(last_name="Варин")
    DirsRating.objects.create(player=player, rating=150, initial_rating=150, declared_rank="10k", games=3)
    client.force_login(UserFactory(is_superuser=True))
    response = client.get("/go/dirs/")
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]
    assert "Cookie" in _vary(response)
    assert "ETag" not in response
