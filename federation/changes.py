"""Warm public answers without a database round trip: each process remembers the versions it read until PostgreSQL
says that something changed (issues 16 and 17).

Every public page and API answer first reads the version of what it shows (``federation.selectors.version_of``, the
API's ``list_version`` and ``history_version``): one prepared statement, yet a round trip to PostgreSQL that was most
of a warm answer's time. Here each process keeps those rows (``version_rows``), per statement and parameters, and
PostgreSQL tells it when to forget them:

- Every table of the project's apps (their models, simple_history's tables and many-to-many tables; not Django's
  own or third-party apps, e.g. sessions or login attempts, which no page shows) has the statement-level trigger
  ``federation_changed``: any ``INSERT``, ``UPDATE``, ``DELETE`` or ``TRUNCATE`` runs
  ``pg_notify('federation_changed', '')``. ``install_triggers`` adds it after every ``migrate`` (``post_migrate``)
  to every such table still without it, so a new model's table gets it with the migration that creates it. The
  notification goes out when the writing transaction commits (one per transaction, however many statements), and
  never for one rolled back.
- Each process has one dedicated autocommit connection listening on that channel (``LISTEN``), made at its first
  version read (a forked worker makes its own: the listener belongs to the process id that made it). Each version
  read first polls it without waiting (a ``recv`` that finds the socket empty: about a microsecond); anything
  heard clears the memo, and the version is read from the database again.
- The memo is not used, and the database answers as before, on SQLite; with ``PAGE_VERSION_MEMO`` off
  (``DJANGO_PAGE_VERSION_MEMO=false``: every version read from the database, as the first request after any write
  reads it; the benchmark's cold pages are measured so); inside a transaction (an atomic block:
  its own uncommitted writes must show, and the tests' transactions); and whenever the listener is not known to be
  healthy: not made yet, refused (retried after ``RETRY_SECONDS``), or it failed (an error on the socket, or a
  message from the server such as "terminating connection", which PostgreSQL sends to a killed or stopped
  backend; the memo is cleared and a new listener made at the next read).
- A new listener is trusted only after it heard a probe sent from another connection: behind a pooler in
  transaction mode (PgBouncer), where a ``LISTEN`` does not outlive its transaction, it never does, so the
  versions are always read from the database there, as they were before.
- Bounds: ``PER_STATEMENT`` parameter sets per statement (the oldest forgotten first), so a crawl through every
  player's page holds a bounded memo. Rows are stored only if nothing was heard between the read and the store
  (the ``_generation`` check), so a thread cannot store a version older than a notification another thread
  already handled.

Writes by this very process are exact at once, before their notification arrives: every statement on a Django
PostgreSQL connection passes ``_note_writes`` (a permanent ``execute_wrapper``, the ORM's saves, bulk updates and
raw SQL alike); one that is not a read clears the memo as soon as it returns in autocommit, and inside a
transaction once that transaction is over (checked at the next version read; a rolled-back one clears it too,
which costs one read). Decision: no ``transaction.on_commit`` callback for it, which the tests counting a
service's callbacks would see.

The remaining window: a write committed by another process (another worker, a Celery task, psql) is heard once
PostgreSQL has delivered its notification to this process's listener, which the listener's server process does
when it next runs after the commit. Measured on the development machine (two cores shared with other work, load
4 to 6): in loops of 1,000 commits by another connection, each followed at once by a version read, 7 to 186 of
the reads still gave the old version; the notification arrived 1 to 4 ms (median) and at most 15 ms after the
commit had returned, and every read after it was right (``tests/federation/test_changes.py`` checks that in a
loop). A visitor's next page after someone else's edit comes later than that. A write made in this process
outside Django's connections (a raw psycopg connection) has the same window.

Costs:
- One more connection to PostgreSQL per process (four gunicorn workers: four more).
- On a write: the trigger's call, per statement (a single writer measured the same within the noise). And
  PostgreSQL serialises the commits of all transactions that notify (it holds a lock on the notification queue
  from just before the commit until after its WAL flush): eight connections committing one-row updates as fast as
  they could managed about 600 commits a second with the trigger against 3,000 to 4,800 without it, 12 to 16 ms
  per commit at the median instead of about 1 ms, on this loaded machine (with ``synchronous_commit = off`` the
  difference vanishes: the lock is held only for the flush). The site's concurrent writer is the preferans deal
  API: its transactions defer their notification until after the commit (``notify_after_commit``), so they do not
  wait for each other's flush; its bulk writers commit once per batch. Decision: a deferred notification is lost if
  its writer dies between the commit and the notification, so the memo is emptied every ``MAX_AGE_SECONDS`` (60 s)
  whatever it heard: the longest a version can stay stale.
- A process that serves no page for a long time leaves the notifications in its listener's socket, and then in
  PostgreSQL's queue (8 GB), until its next read.
"""

from __future__ import annotations

import logging
import os
import re
import sysconfig
import threading
import time
import weakref
from contextvars import ContextVar
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.connection import ConnectionProxy

logger = logging.getLogger(__name__)

CHANNEL = "federation_changed"
TRIGGER = "federation_changed"
FUNCTION = "federation_changed"
#: Parameter sets remembered per statement (e.g. players' pages): the oldest is forgotten first.
PER_STATEMENT = 4096
#: After a listener could not be made (or did not hear its probe), versions are read from the database this long.
RETRY_SECONDS = 300
#: How long a new listener waits for its probe, and the probe's payload (the triggers' is empty).
PROBE_SECONDS = 2.0
PROBE = "probe"
#: The memo is emptied at least this often: a notification that never came (a writer that died between its commit
#: and its deferred notification, ``notify_after_commit``) leaves a version stale for this long at most.
MAX_AGE_SECONDS = 60.0
#: The transaction-local setting with which a writer takes its notification out of its commit (``notify_after_commit``).
DEFERRED = "federation.notify_after_commit"

_lock = threading.RLock()
_memo: dict[str, dict[tuple, list[tuple]]] = {}
_generation = 0
_cleared_at = time.monotonic()
_listener: _Listener | None = None
_retry_at = 0.0
#: Django connections of this process that wrote inside a transaction not yet seen over.
_open_writes: weakref.WeakSet = weakref.WeakSet()


def version_rows(sql: str, params: list) -> list[tuple]:
    """The rows of a version statement (run through ``federation.db.bound_cursor``), from this process's memo when
    nothing has changed since they were read. The rows are shared: read them, do not change them."""
    recording = _RECORDING.get()
    if recording is not None and not remembered(sql, params):
        recording.append((sql, params))
        return [()]
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql" or _in_transaction(connection) or not settings.PAGE_VERSION_MEMO:
        return _fetch(sql, params)
    generation = _unchanged_generation()
    if generation is None:
        return _fetch(sql, params)
    key = tuple(params)
    statement_memo = _memo.get(sql)
    if statement_memo is not None:
        rows = statement_memo.get(key)
        if rows is not None:
            return rows
    rows = _fetch(sql, params)
    with _lock:
        if generation == _generation:
            statement_memo = _memo.setdefault(sql, {})
            if len(statement_memo) >= PER_STATEMENT:
                del statement_memo[next(iter(statement_memo))]
            statement_memo[key] = rows
    return rows


def forget() -> None:
    """Clear the memo: the next version reads go to the database."""
    global _generation, _cleared_at
    with _lock:
        _memo.clear()
        _generation += 1
        _cleared_at = time.monotonic()


def stop_listening() -> None:
    """Close this process's listener (before its database is dropped, e.g. at the end of the tests); the next version
    read makes a new one."""
    global _retry_at
    with _lock:
        _drop_listener()
        _retry_at = 0.0


#: ``version_statement``'s record of the statements a version function reads (None: not recording).
_RECORDING: ContextVar[list | None] = ContextVar("federation_version_statements", default=None)


#: ``version_statement``'s answer when it could not tell the version (it read more than one statement).
UNKNOWN = object()


def version_statement(version, *args, **kwargs) -> tuple[tuple[str, list] | None, object]:
    """``(statement, None)``: the statement ``version(*args, **kwargs)`` (a page's version function) would send,
    when it reads one this process does not remember; ``(None, version)``: the version itself, when the memo
    answered (the usual warm request: the version is then worked out once); ``(None, UNKNOWN)`` otherwise. For
    ``federation.caching``, which sends the statement together with the page's first reads
    (``federation.db.reads_together``)."""
    recording: list = []
    token = _RECORDING.set(recording)
    try:
        current = version(*args, **kwargs)
    finally:
        _RECORDING.reset(token)
    if not recording:
        return None, current
    if len(recording) == 1:
        return recording[0], None
    return None, UNKNOWN


def remembered(sql: str, params: list) -> bool:
    """Whether ``version_rows(sql, params)`` would answer from the memo, without a round trip."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql" or _in_transaction(connection) or not settings.PAGE_VERSION_MEMO:
        return False
    if _unchanged_generation() is None:
        return False
    statement_memo = _memo.get(sql)
    return statement_memo is not None and tuple(params) in statement_memo


def _fetch(sql: str, params: list) -> list[tuple]:
    from federation.db import bound_cursor

    with bound_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _in_transaction(connection) -> bool:
    return connection.in_atomic_block or (connection.connection is not None and not connection.autocommit)


def _unchanged_generation() -> int | None:
    """Poll the listener: the memo's generation when it may be used (cleared first if anything changed), None when
    the listener is not healthy."""
    if _open_writes:  # this process's transactions that wrote: over now?
        for connection in list(_open_writes):
            if not _in_transaction(connection):
                _open_writes.discard(connection)
                forget()
    with _lock:
        listener = _healthy_listener()
        if listener is None:
            return None
        if not listener.quiet():
            if not listener.healthy:
                _drop_listener()
                return None
            forget()
        elif time.monotonic() - _cleared_at > MAX_AGE_SECONDS:
            forget()
        return _generation


class _Unheard(Exception):
    """A new listener did not hear its probe."""


class _Listener:
    """The process's ``LISTEN`` connection. ``healthy`` turns False for good on any error or server message."""

    def __init__(self, connection):
        self.pid = os.getpid()
        self.healthy = True
        self.connection = connection
        self.pgconn = connection.pgconn
        connection.add_notice_handler(self._notice)
        connection.execute(f"LISTEN {CHANNEL}")

    @classmethod
    def open(cls) -> _Listener:
        """A listener that heard a probe sent from another connection (behind a pooler in transaction mode it
        would not); raises when it cannot be made or did not hear it."""
        import psycopg

        params = _connection_params()
        connection = psycopg.connect(**params, autocommit=True)
        try:
            listener = cls(connection)
            with psycopg.connect(**params, autocommit=True) as other:
                other.execute("SELECT pg_notify(%s, %s)", [CHANNEL, PROBE])
            for notify in connection.notifies(timeout=PROBE_SECONDS):
                if notify.payload == PROBE:
                    return listener
            raise _Unheard(f"no notification within {PROBE_SECONDS} s of its probe")
        except BaseException:
            connection.close()
            raise

    def _notice(self, diagnostic) -> None:
        """A message to an idle connection: the server is ending it ("terminating connection due to ...")."""
        self.healthy = False

    def quiet(self) -> bool:
        """Read what arrived, without waiting: True when it was nothing at all (no notification, no error)."""
        import psycopg

        heard, probe = False, PROBE.encode()
        try:
            self.pgconn.consume_input()
            while (notify := self.pgconn.notifies()) is not None:
                heard = heard or notify.extra != probe  # another process's new listener changed nothing
        except psycopg.Error:
            self.healthy = False
        return self.healthy and not heard

    def close(self) -> None:
        """Close it if it is this process's; a parent's copy after a fork is left alone (closing it would end the
        parent's connection)."""
        if self.pid == os.getpid():
            self.connection.close()


def _connection_params() -> dict:
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    params.setdefault("application_name", "federation: listening for changes")
    return params


def _healthy_listener() -> _Listener | None:
    """This process's listener, made when missing (not the parent's after a fork, nor one that failed)."""
    global _listener, _retry_at
    if _listener is not None and _listener.pid == os.getpid() and _listener.healthy:
        return _listener
    _drop_listener()
    if time.monotonic() < _retry_at:
        return None
    try:
        _listener = _Listener.open()
    except Exception as error:
        _retry_at = time.monotonic() + RETRY_SECONDS
        logger.warning("page versions are read from the database for %s s: no listener (%s)", RETRY_SECONDS, error)
        return None
    forget()  # what was remembered before this listener listened may have missed a change
    return _listener


def _drop_listener() -> None:
    global _listener
    if _listener is not None:
        _listener.close()
        _listener = None
        forget()


# --- this process's own writes --------------------------------------------------------------------------------

_READS = ("SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK", "SET", "SHOW")
_CHANGING = re.compile(r"\b(INSERT|UPDATE|DELETE|MERGE)\b", re.IGNORECASE)


def _writes(sql) -> bool:
    """Whether a statement may write: anything but a plain read or a transaction's bookkeeping, and a ``WITH`` only
    when it names a change (the API's and the places' reads begin with ``WITH``)."""
    if not isinstance(sql, str):
        return True
    head = sql.lstrip()[:9].upper()
    if head.startswith("WITH"):
        return _CHANGING.search(sql) is not None
    return not head.startswith(_READS)


def _note_writes(execute, sql, params, many, context):
    """``execute_wrapper`` of every Django PostgreSQL connection: a statement that may have written clears the memo
    once it is committed."""
    try:
        return execute(sql, params, many, context)
    finally:
        if _writes(sql):
            connection = context["connection"]
            if isinstance(connection, ConnectionProxy):  # some cursors are made with it (``federation.db``)
                connection = connections[connection.alias]
            if _in_transaction(connection):
                _open_writes.add(connection)
            else:
                forget()


def watch_writes(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: note this connection's writes (first in the chain of wrappers, so a
    ``with connection.execute_wrapper(...)`` block around it still removes its own)."""
    if connection.vendor == "postgresql" and _note_writes not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, _note_writes)


# --- a writer's notification after its commit -------------------------------------------------------------------

#: For a writer's own statement: true, and from then on its transaction's triggers leave the notification to
#: ``notify_after_commit`` (``set_config``'s third argument makes it last until the transaction ends).
DEFER_SQL = f"set_config('{DEFERRED}', 'on', true) IS NOT NULL"


def notify_after_commit(using: str = DEFAULT_DB_ALIAS) -> None:
    """Send the notification of the current transaction's writes once it has committed, in a statement of its own,
    instead of from its commit. For the preferans deal API's transactions, whose statement that locks the game also
    evaluates ``DEFER_SQL``.

    Why: PostgreSQL serialises the commits of all transactions that notify, holding a lock from just before the
    commit until its WAL is flushed; eight clients posting deals were limited to one flush at a time (about 600
    commits a second here, 12 to 16 ms a commit instead of 1). A notification sent alone, by a transaction that
    wrote nothing, flushes nothing and holds that lock a moment. The price: a writer that dies between its commit
    and this statement notifies no one, and the other processes keep the version they read for
    ``MAX_AGE_SECONDS`` at most."""
    from django.db import transaction

    transaction.on_commit(lambda: _notify(using), using=using)


def _notify(using: str) -> None:
    with connections[using].cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, '')", [CHANNEL])


# --- the triggers ---------------------------------------------------------------------------------------------


def _installed_paths() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    return tuple({Path(paths["purelib"]).resolve(), Path(paths["platlib"]).resolve()})


def watched_tables() -> list[str]:
    """The tables of the project's apps (every app not installed into the environment), with their history and
    many-to-many tables."""
    from django.apps import apps

    installed = _installed_paths()
    tables = set()
    for app in apps.get_app_configs():
        if any(Path(app.path).resolve().is_relative_to(path) for path in installed):
            continue
        for model in app.get_models(include_auto_created=True):
            if model._meta.managed and not model._meta.proxy:
                tables.add(model._meta.db_table)
    return sorted(tables)


def install_triggers(using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    """``post_migrate`` receiver: the notifying function, and its trigger on every watched table without it."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"""CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF COALESCE(current_setting('{DEFERRED}', true), '') <> 'on' THEN
                    PERFORM pg_notify('{CHANNEL}', '');
                END IF;
                RETURN NULL;
            END $$"""
        )
        cursor.execute(
            "SELECT c.relname FROM pg_class c WHERE c.relname = ANY(%s) AND c.relkind IN ('r', 'p')"
            " AND pg_table_is_visible(c.oid)"
            " AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = %s)",
            [watched_tables(), TRIGGER],
        )
        for (table,) in cursor.fetchall():
            cursor.execute(
                f"CREATE TRIGGER {TRIGGER} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE"
                f" ON {connection.ops.quote_name(table)} FOR EACH STATEMENT EXECUTE FUNCTION {FUNCTION}()"
            )
