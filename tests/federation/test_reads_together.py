"""A player's page sends its statements to PostgreSQL at once (``federation.db.reads_together``): the profile, the
results' page and what each section says it will read. The page is the same as when each statement is sent on its
own, the same statements are sent, and every statement read ahead is the one a section then sends (none is read for
nothing for a player in every discipline)."""

import contextlib
import logging
import traceback
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from federation.caching import forget_page_memo
from federation.db import bound_cursor, reads_together
from ratings.dirs.models import DirsRating
from ratings.models import RatingEntry
from ratings.preferans.models import PreferansRating
from tournaments.go.models import Registration

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("postgres")]


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("demo_data", "--players", "60", "--years", "1", "--force", stdout=StringIO())
        yield
        transaction.set_rollback(True)


def _everywhere() -> list[int]:
    """Three card-game players given a mahjong entry (a copy of another's), a DIRS and a preferans rating, and a Go
    registration where they lack one: a player in every discipline (the demo keeps them apart)."""
    from tournaments.go.models import GoTournament

    mahjong = RatingEntry.objects.filter(snapshot__rating_list__slug="mahjong-rr").order_by("-snapshot__as_of").first()
    go = GoTournament.objects.first()
    ids = sorted(
        set(RatingEntry.objects.filter(snapshot__rating_list__slug="gorbunov").values_list("player_id", flat=True))
    )[:3]
    for pk in ids:
        if not RatingEntry.objects.filter(player_id=pk, snapshot=mahjong.snapshot).exists():
            RatingEntry.objects.create(
                snapshot=mahjong.snapshot,
                player_id=pk,
                rank=mahjong.rank,
                rating=mahjong.rating,
                delta=1,
                events=mahjong.events,
                details=mahjong.details,
            )
        DirsRating.objects.get_or_create(
            player_id=pk, defaults={"rating": 150, "initial_rating": 150, "declared_rank": "6k", "games": 0}
        )
        PreferansRating.objects.get_or_create(player_id=pk, defaults={"rating": 1000, "max_rating": 1000})
        if not Registration.objects.filter(player_id=pk).exists():
            Registration.objects.create(
                tournament=go,
                player_id=pk,
                name=f"Player {pk}",
                rating=1500,
                rating_source=Registration._meta.get_field("rating_source").choices[0][0],
            )
    return ids


def _page(client, url: str) -> tuple[str, list[str]]:
    cache.clear()
    forget_page_memo()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), [query["sql"] for query in queries.captured_queries]


@pytest.mark.parametrize("suffix", ["", "?sort=-place&page=1", "?page=99"])
@pytest.mark.parametrize("prefix", ["", "/en"])
def test_the_page_is_the_same_and_nothing_is_read_for_nothing(client, monkeypatch, caplog, demo, prefix, suffix):
    players = _everywhere()
    assert players, "the demo has a player in every discipline"
    for pk in players[:3]:
        url = f"{prefix}/players/{pk}/{suffix}"
        with caplog.at_level(logging.DEBUG, logger="federation.db"):
            together, sent = _page(client, url)
        assert "read ahead for nothing" not in caplog.text
        with monkeypatch.context() as patched:
            patched.setattr("federation.views.reads_together", lambda reads: contextlib.nullcontext())
            alone, sent_alone = _page(client, url)
        assert together == alone
        assert sorted(sent) == sorted(sent_alone)


def test_a_player_without_ratings_reads_the_rest_for_nothing_once(client, caplog, demo):
    from tests.factories import PlayerFactory

    player = PlayerFactory()
    with caplog.at_level(logging.DEBUG, logger="federation.db"):
        html, _sent = _page(client, f"/en/players/{player.pk}/")
    assert player.last_name in html
    assert "read ahead for nothing" in caplog.text


def test_a_statement_is_answered_from_what_was_read_once_then_sent_again():
    reads = [("SELECT %s::int + 1", [1]), ("SELECT %s::text || 'x'", ["a"])]
    with reads_together(reads), CaptureQueriesContext(connection) as queries, bound_cursor() as cursor:
        cursor.execute("SELECT %s::int + 1", [1])
        assert cursor.fetchall() == [(2,)]
        cursor.execute("SELECT %s::text || 'x'", ["a"])
        assert cursor.fetchone() == ("ax",)
        cursor.execute("SELECT %s::int + 1", [1])  # a second time: sent
        assert cursor.fetchall() == [(2,)]
    assert len(queries.captured_queries) == 1


def test_a_cold_player_page_is_one_round_trip_with_its_version(client, monkeypatch, demo):
    """The version (read from the database in a test's transaction) and everything the page reads for a player in
    every discipline go in one pipeline; only a statement that depends on what was read is sent after it."""
    import federation.db

    pk = _everywhere()[0]
    outside, pipelines = [], []
    real_cursor = federation.db._bound_cursor

    def counted_cursor():
        if connection.connection._pipeline is None:
            outside.append("".join(traceback.format_stack(limit=8)))
        return real_cursor()

    real_pipeline = type(connection.connection).pipeline

    def counted_pipeline(self):
        pipelines.append(1)
        return real_pipeline(self)

    cache.clear()
    forget_page_memo()
    monkeypatch.setattr(federation.db, "_bound_cursor", counted_cursor)
    monkeypatch.setattr(type(connection.connection), "pipeline", counted_pipeline)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/en/players/{pk}/").status_code == 200
    assert pipelines == [1]
    # Only what depends on what was read: the names of the tournaments the player's mahjong entry counted.
    assert all("tournament_titles" in stack for stack in outside), outside
    assert len(outside) <= 1
    sent = [query["sql"] for query in queries.captured_queries]
    assert any(sql.startswith("SELECT (SELECT COALESCE(MAX(counter), 0)") for sql in sent)  # the version
    assert len(queries.captured_queries) >= 10
