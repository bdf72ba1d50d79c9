"""Published lists, past weeks and players' pages answered from the cache: an ETag and a Last-Modified from the
versions of what they show, a 304 on a repeat visit, and a new publication changing the answer at once.

A test's transaction never commits, so the writes that must show run their commit callbacks
(``django_capture_on_commit_callbacks(execute=True)``), as the commit of a real request or task would."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.http import http_date

from ratings.gorbunov import services
from ratings.gorbunov.history import gorbunov_history_import
from ratings.models import RatingList
from tests.factories import UserFactory
from tests.ratings.gorbunov.conftest import make_tournament, week
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

URL = "/en/ratings/cards/gorbunov/"


@pytest.fixture(autouse=True)
def _fresh_cache(settings):
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def published(gorbunov_list, season):
    for n in range(1, 6):
        services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(n))
    return gorbunov_list


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """A block whose writes commit, as far as the pages can tell (their versions are bumped)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_a_list_page_carries_validators_and_a_repeat_visit_gets_304_without_rendering(client, published):
    first = client.get(URL)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"')
    assert len(etag) > 10
    assert first["Last-Modified"]
    assert first["Cache-Control"] == "public, no-cache"
    with CaptureQueriesContext(connection) as queries:
        again = client.get(URL, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again["ETag"] == etag
    # The versions come from the cache: nothing is read from the database, nothing rendered.
    assert len(queries) == 0
    # The same page from the cache is the same page.
    with CaptureQueriesContext(connection) as queries:
        cached = client.get(URL)
    assert len(queries) == 0
    assert cached.content == first.content
    assert cached["ETag"] == etag
    since = client.get(URL, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304


def test_a_past_week_and_a_filter_are_cached_under_their_own_tag(client, published):
    newest = client.get(URL)["ETag"]
    past = client.get(URL, {"week": "2026-W12"})
    assert past.status_code == 200
    assert past["ETag"] != newest
    assert client.get(URL, {"week": "2026-W12"}, HTTP_IF_NONE_MATCH=past["ETag"]).status_code == 304
    russian = client.get("/ratings/cards/gorbunov/")
    assert russian["ETag"] != newest  # the language is part of the tag


def test_a_new_publication_changes_the_answer_at_once(client, published, field, committed):
    before = client.get(URL)
    past = client.get(URL, {"week": "2026-W12"})
    with committed():
        make_tournament(field[:6], week(5) + datetime.timedelta(days=3), k=4)
        services.gorbunov_publish(rating_list_id=published.pk, week=week(6))
    after = client.get(URL, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert "13 Apr 2026 – 19 Apr 2026" in after.content.decode()  # the new week, 2026-W16
    assert "2026-W16" not in before.content.decode()
    # A past week's content does not change, but its version does (a rebuild could have changed it): one render.
    assert client.get(URL, {"week": "2026-W12"}, HTTP_IF_NONE_MATCH=past["ETag"]).status_code == 200


def test_a_renamed_player_changes_the_answer(client, published, field, committed):
    before = client.get(URL)
    player = field[0]
    player.last_name_latin = "Renamedov"
    with committed():
        player.save()
    after = client.get(URL, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert "Renamedov" in after.content.decode()


def test_what_is_never_cached(client, published):
    assert "ETag" not in client.get(URL, {"_export": "csv"})
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    signed_in = client.get(URL)
    assert signed_in.status_code == 200
    assert "ETag" not in signed_in
    assert "private" in signed_in["Cache-Control"]
    client.logout()
    assert client.get("/en/ratings/cards/no-such-list/").status_code == 404


def test_a_players_page_is_cached_until_their_ratings_change(client, published, field, settings, committed):
    settings.PLAYER_PAGE_SECTIONS = ["ratings.gorbunov.sections.player_section"]
    url = f"/en/players/{field[0].pk}/"
    first = client.get(url)
    assert first.status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    with committed():
        make_tournament(field[:6], week(5) + datetime.timedelta(days=3), k=4)
        services.gorbunov_publish(rating_list_id=published.pk, week=week(6))
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    old = http_date(0)
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=old).status_code == 200


def _cells(content: bytes) -> list[str]:
    """The list's rows as text (rank, player, rating, change, ...), to compare two answers."""
    body = content.decode().split('id="gorbunov-list"', 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr[^>]*>(.*?)</tr>", body.split("<tbody>", 1)[1], re.S)


def test_a_rebuild_changes_the_answer_at_once(client, published, season, committed):
    before = client.get(URL)
    past = client.get(URL, {"week": "2026-W12"})
    # A coefficient corrected afterwards (in bulk: nothing tells the pages) is rated by the rebuild.
    Tournament.objects.filter(pk=season[0].pk).update(k=8)
    assert client.get(URL).content == before.content
    with committed():
        services.gorbunov_rebuild(rating_list_id=published.pk)
    after = client.get(URL, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert _cells(after.content) != _cells(before.content)
    assert _cells(client.get(URL, {"week": "2026-W12"}).content) != _cells(past.content)


def test_a_history_import_changes_the_answer_at_once(client, gorbunov_list, committed):
    empty = client.get(URL)
    assert 'id="list-empty"' in empty.content.decode()
    index = client.get("/en/ratings/cards/")
    assert "not published yet" in index.content.decode()
    players = [f"h{n}" for n in range(6)]
    doc = {
        "system": "gorbunov",
        "ratings": {"h0": 150},
        "players": [{"id": "h0", "name": "Историев Пётр", "name_latin": "Istoriev Petr"}],
        "tournaments": [
            {
                "id": "H1",
                "date": "2026-03-04",
                "k": 2,
                "format": "constructed",
                "results": [{"player": p, "place": n} for n, p in enumerate(players, start=1)],
            }
        ],
    }
    with committed():
        gorbunov_history_import(doc=doc, rating_list=gorbunov_list)
    listed = client.get(URL, HTTP_IF_NONE_MATCH=empty["ETag"])
    assert listed.status_code == 200
    assert "Istoriev Petr" in listed.content.decode()
    assert len(_cells(listed.content)) == 6
    assert "not published yet" not in client.get("/en/ratings/cards/").content.decode()


def test_the_default_lists_show_on_the_index_at_once(client, db, committed):
    RatingList.objects.filter(engine="gorbunov").delete()
    before = client.get("/en/ratings/cards/")
    assert "No rating lists yet." in before.content.decode()
    with committed():
        services.gorbunov_setup_defaults()
    after = client.get("/en/ratings/cards/", HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert "No rating lists yet." not in after.content.decode()
