"""The public pages' cache (``federation.caching``, ``federation.versions``) as a visitor, an operator and an
attacker meet it: a repeat visit is a ``304``, a write shows at once, junk in the address neither fills the cache
nor changes the page, the request's host never reaches a page, and a cache that is down fails no page.

A test's transaction never commits, so a write that must show runs its commit callbacks
(``django_capture_on_commit_callbacks(execute=True)``), as a real request or task commits."""

import datetime

import pytest
from django.apps import apps
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from federation import versions
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PLAYERS = "/en/players/"
DEAD_REDIS = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.2, "SOCKET_TIMEOUT": 0.2, "IGNORE_EXCEPTIONS": True},
    }
}


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def player(committed):
    with committed():
        return PlayerFactory(last_name="Кешев", last_name_latin="Keshev", city="Тверь")


def _stored_answers() -> int:
    """How many answers the cache holds (LocMemCache's keys, as the test settings configure it)."""
    return sum(1 for key in cache._cache if ":answer:" in key)


def test_a_repeat_visit_is_a_304_and_a_write_shows_at_once(client, player, committed):
    url = f"/en/players/{player.pk}/"
    first = client.get(url)
    assert first.status_code == 200
    assert first["Cache-Control"] == "public, no-cache"
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    player.last_name_latin = "Keshevsky"
    with committed():
        player.save()
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert "Keshevsky" in after.content.decode()


def test_a_write_rolled_back_changes_no_page(client, player):
    first = client.get(PLAYERS)
    player.city = "Казань"
    player.save()  # in the test's transaction, never committed: no version moves
    assert client.get(PLAYERS, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_unknown_parameters_neither_make_entries_nor_change_the_page(client, player):
    plain = client.get(PLAYERS)
    stored = _stored_answers()
    for junk in range(20):
        response = client.get(PLAYERS, {f"junk{junk}": "x", "utm_source": str(junk)})
        assert response.status_code == 200
        assert response["ETag"] == plain["ETag"]
        assert response.content == plain.content  # no junk in its links either
    assert _stored_answers() == stored
    # Empty values and the order of the parameters do not matter either.
    assert client.get(PLAYERS, {"city": "", "page": "1"})["ETag"] == client.get(PLAYERS, {"page": "1"})["ETag"]
    assert client.get(f"{PLAYERS}?city=Тверь&page=1")["ETag"] == client.get(f"{PLAYERS}?page=1&city=Тверь")["ETag"]


def test_a_search_is_answered_with_its_tag_but_not_stored(client, player):
    stored = _stored_answers()
    found = client.get(PLAYERS, {"q": "Keshev"})
    assert "Keshev" in found.content.decode()
    assert _stored_answers() == stored
    assert client.get(PLAYERS, {"q": "Keshev"}, HTTP_IF_NONE_MATCH=found["ETag"]).status_code == 304


def test_no_page_carries_the_requests_host(client, player, settings):
    settings.ALLOWED_HOSTS = ["testserver", "other.example"]
    settings.SITE_URL = "https://ratings.example.org"
    page = client.get(PLAYERS, HTTP_HOST="other.example").content.decode()
    assert "other.example" not in page
    assert '<link rel="canonical" href="https://ratings.example.org/en/players/">' in page
    assert 'hreflang="ru" href="https://ratings.example.org/players/"' in page
    assert client.get(PLAYERS).content.decode() == page


def test_the_date_is_part_of_the_key(client, player, monkeypatch):
    """A page that says "will be rated on Monday" must not be served the next day."""
    first = client.get(PLAYERS)
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    monkeypatch.setattr("federation.caching.timezone.localdate", lambda: tomorrow)
    assert client.get(PLAYERS, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_what_is_never_stored(client, player):
    assert "ETag" not in client.get(PLAYERS, {"_export": "csv"})
    client.force_login(UserFactory(is_staff=True))
    signed_in = client.get(PLAYERS)
    assert "ETag" not in signed_in
    assert "private" in signed_in["Cache-Control"]


def test_refresh_pages_after_a_fix_by_hand_in_sql(client, player):
    from django.db import connection

    first = client.get(PLAYERS)
    with connection.cursor() as cursor:  # an operator's fix, past every service
        cursor.execute("UPDATE federation_player SET last_name_latin = 'Fixedov' WHERE id = %s", [player.pk])
    assert client.get(PLAYERS, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    call_command("refresh_pages")
    after = client.get(PLAYERS, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert "Fixedov" in after.content.decode()


def test_a_cache_that_is_down_fails_no_page(client, player, settings):
    settings.CACHES = DEAD_REDIS
    for url in (PLAYERS, f"/en/players/{player.pk}/", "/", "/en/ratings/cards/", "/go/dirs/", "/preferans/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "ETag" not in response
    login = client.get("/admin/login/")
    assert login.status_code == 200
    staff = UserFactory(is_staff=True, is_superuser=True, username="boss")
    staff.set_password("a long pass phrase")
    staff.save()
    assert client.post("/admin/login/", {"username": "boss", "password": "a long pass phrase"}).status_code == 302
    with pytest.raises(CommandError):
        call_command("refresh_pages")


def test_every_model_is_either_shown_or_said_not_to_be():
    project = {"federation", "tournaments", "ratings", "gorbunov", "mahjong", "dirs", "preferans", "go"}
    models = {
        model._meta.label
        for model in apps.get_models()
        if model._meta.app_label in project and not model.__name__.startswith("Historical")
    }
    assert models == set(versions.SCOPE_OF_MODEL) | versions.NOT_SHOWN


def test_the_code_version_changes_with_a_template(tmp_path, settings):
    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "page.html"
    page.write_text("one")
    settings.BASE_DIR = tmp_path
    versions.code_version.cache_clear()
    try:
        first = versions.code_version()[0]
        page.write_text("two")
        versions.code_version.cache_clear()
        assert versions.code_version()[0] != first
    finally:
        versions.code_version.cache_clear()


def test_a_snapshot_is_deleted_in_a_few_statements_and_bumps_its_pages(
    client, committed, django_assert_max_num_queries
):
    """The row tables have no delete receiver: Django deletes a snapshot's entries in one statement, not one by
    one (a mahjong rebuild replaces snapshots of 20,000 entries), and the snapshot's own delete bumps the pages."""
    from ratings.models import RatingEntry, RatingList, RatingSnapshot

    rating_list = RatingList.objects.get(slug="mahjong-rr")
    snapshot = RatingSnapshot.objects.create(rating_list=rating_list, as_of=datetime.date(2026, 1, 5))
    players = PlayerFactory.create_batch(40)
    RatingEntry.objects.bulk_create(
        RatingEntry(snapshot=snapshot, player=player, rank=n, rating=500 + n) for n, player in enumerate(players, 1)
    )
    first = client.get(PLAYERS)
    with committed(), django_assert_max_num_queries(6):
        snapshot.delete()
    assert not RatingEntry.objects.filter(snapshot_id=snapshot.pk).exists()
    assert client.get(PLAYERS, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
