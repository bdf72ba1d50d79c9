"""Warm answers without a database round trip (``federation.changes``): a process remembers the versions it read
until PostgreSQL notifies a committed write, and the next answer after a change is the new one.

On real PostgreSQL with committed transactions (``transactional_db``): "another connection" is a psycopg connection
of its own, as another worker, a Celery task or psql would write; "this process" writes through Django's.
"""

import datetime as dt
import os
import time
from decimal import Decimal

import psycopg
import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from federation import changes
from federation.models import Player, PublicVersion
from federation.selectors import version_of
from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot
from tests.factories import PlayerFactory

COUNTER = PublicVersion._meta.db_table
PLAYERS = Player._meta.db_table
FRAGMENTS = [
    (f"SELECT COALESCE(MAX(counter), 0) FROM {COUNTER} WHERE id = %s", [1]),
    (f"SELECT COUNT(*) FROM {PLAYERS}", []),
]


@pytest.fixture
def live(transactional_db, postgres):
    """Committed writes on PostgreSQL, and this process's listener gone at the end (the next test makes its own)."""
    yield
    changes.stop_listening()


@pytest.fixture
def other():
    """Another connection to the test database, in autocommit."""
    params = {**changes._connection_params(), "application_name": "test: another connection"}
    with psycopg.connect(**params, autocommit=True) as other_connection:
        yield other_connection


def _read() -> tuple[str, int]:
    """The version, and how many statements reading it cost this process's connection."""
    with CaptureQueriesContext(connection) as captured:
        version = version_of(FRAGMENTS)
    return version, len(captured)


def _settled() -> str:
    """Read until the version comes from the memo (the notifications of the test's own set-up have arrived)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        version, queries = _read()
        if queries == 0:
            return version
    pytest.fail("the version never came from the memo")


def _eventually(expected: str) -> int:
    """Read until the version is ``expected`` (the notification has arrived); how many reads were stale before."""
    stale = 0
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if _read()[0] == expected:
            return stale
        stale += 1
    pytest.fail(f"the version did not become {expected}")


def _listener_backends(other) -> list[int]:
    return [
        pid
        for (pid,) in other.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s AND datname = current_database()",
            ["federation: listening for changes"],
        )
    ]


def test_a_warm_version_costs_no_query_and_a_write_by_this_process_is_read_at_once(live):
    PublicVersion.objects.create(pk=1, counter=5)
    PlayerFactory()
    assert _read() == ("5|1", 1)
    assert _settled() == "5|1"
    assert _read() == ("5|1", 0)

    PublicVersion(pk=1, counter=6).save()  # a single save
    assert _read() == ("6|1", 1)
    PublicVersion.objects.filter(pk=1).update(counter=F("counter") + 1)  # a queryset's bulk update
    assert _read() == ("7|1", 1)
    with connection.cursor() as cursor:  # raw SQL
        cursor.execute(f"UPDATE {COUNTER} SET counter = 8")
    assert _read() == ("8|1", 1)
    with transaction.atomic():  # a transaction: what it wrote is read once it is over
        PublicVersion.objects.filter(pk=1).update(counter=9)
        PlayerFactory()
    assert _read() == ("9|2", 1)
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {COUNTER}")
    assert _read() == ("0|2", 1)


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        (f"INSERT INTO {COUNTER} (id, counter) VALUES (2, 1)", None),  # a row no version reads: cleared all the same
        (f"UPDATE {COUNTER} SET counter = 6 WHERE id = 1", "6|0"),
        (f"DELETE FROM {COUNTER}", "0|0"),
        (f"TRUNCATE {COUNTER}", "0|0"),
    ],
)
def test_a_write_committed_by_another_connection_clears_the_memo(live, other, statement, expected):
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    other.execute(statement)
    if expected is None:
        deadline = time.monotonic() + 5
        while _read()[1] == 0:  # the memo is cleared when the notification arrives
            assert time.monotonic() < deadline, "the memo was never cleared"
        return
    _eventually(expected)
    assert _settled() == expected


def test_the_next_read_after_another_connections_commit_is_stale_only_until_its_notification(live, other):
    """Each commit by another connection, then at once a read: the old version is read only until the notification
    arrives (milliseconds; how often is measured in ``federation.changes``' docstring), never after."""
    PublicVersion.objects.create(pk=1, counter=0)
    _settled()
    for counter in range(1, 51):
        other.execute(f"UPDATE {COUNTER} SET counter = %s", [counter])
        _eventually(f"{counter}|0")


def test_a_rolled_back_write_leaves_the_memo_in_use(live, other):
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    with psycopg.connect(**changes._connection_params(), autocommit=True) as witness:
        witness.execute("LISTEN federation_changed")
        witness.execute("LISTEN test_marker")
        with other.transaction(force_rollback=True):
            other.execute(f"UPDATE {COUNTER} SET counter = 6")
        other.execute("NOTIFY test_marker")
        heard = [notify.channel for notify in witness.notifies(timeout=5, stop_after=1)]
    assert heard == ["test_marker"]  # notifications come in commit order: nothing came from the rolled-back write
    assert _read() == ("5|0", 0)


def test_a_deferring_writer_notifies_after_its_commit_not_from_it(live, other):
    """The preferans deal API's transactions take their notification out of their commit (``DEFER_SQL``), which
    PostgreSQL would serialise with every other notifying commit, and send it in a statement of its own after."""
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    with psycopg.connect(**changes._connection_params(), autocommit=True) as witness:
        witness.execute("LISTEN federation_changed")
        witness.execute("LISTEN test_marker")
        with other.transaction():
            other.execute(f"SELECT {changes.DEFER_SQL}")
            other.execute(f"UPDATE {COUNTER} SET counter = 6")
        other.execute("NOTIFY test_marker")
        heard = [notify.channel for notify in witness.notifies(timeout=5, stop_after=1)]
        assert heard == ["test_marker"]  # the commit itself notified no one
        assert _read() == ("5|0", 0)  # so this process still answers from its memo ...
        other.execute("SELECT pg_notify('federation_changed', '')")  # ... until the writer's own notification
        assert [n.channel for n in witness.notifies(timeout=5, stop_after=1)] == ["federation_changed"]
    assert _eventually("6|0") >= 0
    with other.transaction():  # the setting lasted only for that transaction: the next one notifies from its commit
        other.execute(f"UPDATE {COUNTER} SET counter = 7")
    assert _eventually("7|0") >= 0


def test_notify_after_commit_sends_the_notification_once_the_transaction_commits(live, other):
    PublicVersion.objects.create(pk=1, counter=5)
    other.execute("LISTEN federation_changed")
    list(other.notifies(timeout=0.5))  # what the set-up sent
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {changes.DEFER_SQL}")
            cursor.execute(f"UPDATE {COUNTER} SET counter = 6")
        changes.notify_after_commit()
        assert list(other.notifies(timeout=0.3)) == []  # not before the commit
    assert [n.channel for n in other.notifies(timeout=5, stop_after=1)] == ["federation_changed"]


def test_a_lost_notification_leaves_a_version_stale_for_max_age_at_most(live, other, monkeypatch):
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    with other.transaction():  # a deferring writer that died before its notification
        other.execute(f"SELECT {changes.DEFER_SQL}")
        other.execute(f"UPDATE {COUNTER} SET counter = 6")
    assert _read() == ("5|0", 0)
    monkeypatch.setattr(changes, "MAX_AGE_SECONDS", 0.2)
    time.sleep(0.3)
    assert _read() == ("6|0", 1)


def test_inside_a_transaction_the_database_answers_with_its_own_writes(live):
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    with transaction.atomic():
        assert _read() == ("5|0", 1)
        PublicVersion.objects.filter(pk=1).update(counter=6)
        assert _read() == ("6|0", 1)
        transaction.set_rollback(True)
    assert _read() == ("5|0", 1)  # this process's own transaction that wrote clears the memo, even rolled back
    assert _read() == ("5|0", 0)


def test_a_killed_listener_falls_back_to_the_database_and_is_made_again(live, other):
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    [killed] = _listener_backends(other)
    other.execute("SELECT pg_terminate_backend(%s, 5000)", [killed])
    other.execute(f"UPDATE {COUNTER} SET counter = 6")  # while nobody listens in this process
    assert _read() == ("6|0", 1)
    assert _settled() == "6|0"
    assert _listener_backends(other) not in ([], [killed])


def test_a_closed_listener_falls_back_to_the_database_and_is_made_again(live, other):
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    changes._listener.connection.close()
    other.execute(f"UPDATE {COUNTER} SET counter = 6")
    assert _read() == ("6|0", 1)
    assert _settled() == "6|0"


def test_a_forked_process_listens_on_a_connection_of_its_own(live, other):
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    [parent_listener] = _listener_backends(other)
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child: a Django connection of its own too (the parent's is left to the parent)
        code = 1
        try:
            connection.connection = None
            version, queries = _read()
            code = 0 if (version, queries) == ("5|0", 1) and changes._listener.pid == os.getpid() else 2
            os.write(write, str(changes._listener.connection.info.backend_pid).encode())
        finally:
            os._exit(code)
    os.close(write)
    child_listener = int(os.read(read, 32))
    os.close(read)
    assert os.waitpid(child, 0)[1] == 0
    assert child_listener != parent_listener
    assert _read() == ("5|0", 0)  # the parent's listener is untouched (and the child's probe changed nothing)
    assert changes._listener.connection.info.backend_pid == parent_listener
    other.execute(f"UPDATE {COUNTER} SET counter = 6")
    _eventually("6|0")


def test_every_table_of_the_projects_apps_has_the_trigger_and_others_do_not(live):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = %s",
            [changes.TRIGGER],
        )
        triggered = {row[0] for row in cursor.fetchall()}
    watched = set(changes.watched_tables())
    assert triggered == watched
    assert {PLAYERS, Player.history.model._meta.db_table, COUNTER, "ratings_ratingentry"} <= watched
    assert {"django_session", "auth_user", "django_celery_beat_periodictask"}.isdisjoint(watched)


def _list_with_entry(player: Player) -> RatingList:
    rating_list = RatingList.objects.create(slug="changes", name="Список", name_en="List", engine=Engine.GORBUNOV)
    snapshot = RatingSnapshot.objects.create(rating_list=rating_list, as_of=dt.date(2026, 3, 2))
    RatingEntry.objects.create(snapshot=snapshot, player=player, rank=1, rating=Decimal(1500), events=3)
    return rating_list


def test_a_warm_api_answer_costs_no_query_and_a_renamed_player_is_in_the_next_one(live, client):
    player = PlayerFactory(last_name_latin="Before", first_name_latin="Ivan")
    url = f"/api/v1/lists/{_list_with_entry(player).slug}/?lang=en"
    assert client.get(url).json()["entries"][0]["player"]["name"] == "Before Ivan"
    deadline = time.monotonic() + 5
    while True:
        with CaptureQueriesContext(connection) as captured:
            warm = client.get(url)
        if not captured:
            break
        assert time.monotonic() < deadline, "the warm answer never came without a query"
    assert warm.json()["entries"][0]["player"]["name"] == "Before Ivan"

    player.last_name_latin = "After"
    player.save()
    assert client.get(url).json()["entries"][0]["player"]["name"] == "After Ivan"


def test_without_a_listener_every_version_is_read_from_the_database(transactional_db, monkeypatch):
    """On SQLite, and on PostgreSQL when no listener could be made (behind a pooler in transaction mode)."""
    changes.stop_listening()
    monkeypatch.setattr(changes, "_retry_at", time.monotonic() + 60)  # as after a listener that heard no probe
    PublicVersion.objects.create(pk=1, counter=5)
    assert _read() == ("5|0", 1)
    assert _read() == ("5|0", 1)


def test_a_read_beginning_with_with_keeps_the_memo_and_a_change_beginning_with_with_clears_it(live):
    PublicVersion.objects.create(pk=1, counter=5)
    assert _settled() == "5|0"
    with connection.cursor() as cursor:
        cursor.execute(f"WITH c AS (SELECT counter FROM {COUNTER}) SELECT MAX(counter) FROM c")
    assert _read() == ("5|0", 0)
    with connection.cursor() as cursor:
        cursor.execute(f"WITH c AS (UPDATE {COUNTER} SET counter = 6 RETURNING counter) SELECT MAX(counter) FROM c")
    assert _read() == ("6|0", 1)


def test_with_the_memo_off_every_version_is_read_from_the_database(live, settings):
    """``DJANGO_PAGE_VERSION_MEMO=false``: each read sends the statement (the benchmark's cold pages)."""
    _settled()
    settings.PAGE_VERSION_MEMO = False
    assert [_read()[1] for _ in range(3)] == [1, 1, 1]
    settings.PAGE_VERSION_MEMO = True
    assert _settled()
