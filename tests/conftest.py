"""Shared test set-up. Engine tests (tests/ratings/engines, tests/tournaments/pairing) need no Django.

``postgres`` and ``celery_worker`` are for the tests that need the real components: locking and concurrency on
PostgreSQL, and a real Celery worker process consuming from Redis. Every test that uses either fixture is marked
``postgres`` (and ``celery_worker``) here, so a run on the embedded default (SQLite) deselects them with
``-m "not postgres"``, as ``make test`` does; run anyway without the component, such a test is skipped with the
reason, and in CI (``CI`` set) it fails instead, so nothing is skipped there.
"""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent

# The fuzzers explore new inputs on every developer's run (hypothesis keeps what fails in .hypothesis/ and replays
# it); in CI (``CI`` set) they run a fixed, derandomized set of examples, so that a landing is judged on the inputs
# its author ran and a new finding comes from a developer's run, not from a random CI failure.
hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Mark the tests by the real components their fixtures need, before ``-m`` selects among them."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "postgres" in fixtures:
            item.add_marker(pytest.mark.postgres)
        if "celery_worker" in fixtures or "celery_workers" in fixtures:
            item.add_marker(pytest.mark.celery_worker)


def pytest_report_header(config):
    """Which of the two set-ups this run tests: CI runs the suite once on each."""
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    database = "PostgreSQL" if engine.endswith("postgresql") else "SQLite (in memory)"
    return f"database: {database}; Celery broker: {settings.CELERY_BROKER_URL or 'none, tasks run eagerly'}"


def _missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"CI must run this test: {reason}")
    pytest.skip(reason)


@pytest.fixture
def postgres(db):
    from django.db import connection

    if connection.vendor != "postgresql":
        _missing("needs PostgreSQL (set DATABASE_URL, or deselect with -m 'not postgres')")
    return connection


@pytest.fixture
def celery_workers(transactional_db, postgres):
    """Start real ``celery worker`` processes on one queue of their own, reading the test database and a Redis
    broker: ``start()`` starts one and returns its process (a test may kill it), all stopped at the end. Exposes
    ``.queue``; send tasks with ``task.apply_async(..., queue=queue)`` (or route the tasks there)."""
    from django.conf import settings
    from django.db import connection

    from federation.celery import app

    broker = os.environ.get("CELERY_BROKER_URL") or settings.CELERY_BROKER_URL
    if not broker:
        _missing("needs Redis (set CELERY_BROKER_URL)")
    db = connection.settings_dict
    database_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    if db.get("PASSWORD"):
        database_url = database_url.replace(f"{db['USER']}@", f"{db['USER']}:{db['PASSWORD']}@")
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings.test",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    old = (app.conf.task_always_eager, app.conf.broker_url, app.conf.result_backend)
    app.conf.update(task_always_eager=False, broker_url=broker, result_backend=broker)
    processes: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        name = f"{queue}-{len(processes)}"
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "federation",
                "worker",
                "-P",
                "solo",
                "-Q",
                queue,
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{name}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        processes.append(worker)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if worker.poll() is not None:
                pytest.fail("the Celery worker exited: " + (worker.stdout.read() if worker.stdout else ""))
            if app.control.ping(destination=[f"{name}@{os.uname().nodename}"], timeout=1.0):
                return worker
        pytest.fail("the Celery worker did not start within 60 s")

    start.queue = queue
    try:
        yield start
    finally:
        for worker in processes:
            if worker.poll() is None:
                worker.terminate()
                try:
                    worker.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    worker.kill()
        app.conf.update(task_always_eager=old[0], broker_url=old[1], result_backend=old[2])


@pytest.fixture
def celery_worker(celery_workers):
    """One real ``celery worker`` process (see ``celery_workers``); yields the queue name."""
    celery_workers()
    return celery_workers.queue


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache: the cached federation identity and the cached public pages
    (``federation.caching``) of one test must not be served to the next, whose database was rolled back."""
    from django.core.cache import caches

    for alias in caches:
        caches[alias].clear()
