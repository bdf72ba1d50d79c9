"""Job runs: recorded with who, when and what changed; the queue down refused in words and nothing written; lost runs
detected and run again; a failed range rebuild names the dates written and not; every job from the command line."""

import datetime
from contextlib import contextmanager

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.utils import timezone

from federation.celery import app
from ratings import jobs
from ratings.gorbunov import tasks as gorbunov_tasks
from ratings.mahjong import services as mahjong_services
from ratings.models import JobRun, JobState, RatingList, RatingSnapshot
from tests.factories import PlayerFactory, federation_staff, organiser
from tests.ratings.mahjong.factories import mahjong_tournament

pytestmark = pytest.mark.django_db


@contextmanager
def _eager(value: bool, broker: str | None = None):
    old = (app.conf.task_always_eager, app.conf.broker_url, app.conf.broker_write_url)
    app.conf.task_always_eager = value
    if broker is not None:
        app.conf.broker_url = app.conf.broker_write_url = broker
        app._pool = app.amqp._producer_pool = None
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.broker_url, app.conf.broker_write_url = old
        if broker is not None:
            app._pool = app.amqp._producer_pool = None


def _publisher(client, username="olga"):
    staff = federation_staff(username=username)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["publish_ratinglist", "view_ratinglist"]))
    client.force_login(staff)
    return staff


def _mahjong_history():
    mahjong_services.mahjong_setup_defaults()
    players = [PlayerFactory() for _ in range(16)]
    mahjong_tournament(players=players, end=datetime.date(2025, 1, 1))
    mahjong_tournament(players=players, end=datetime.date(2025, 2, 1))
    return RatingList.objects.get(slug="mahjong-rr")


DEAD_BROKER = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there


def test_queue_down_is_said_in_russian_and_nothing_is_written(client):
    rr = _mahjong_history()
    _publisher(client)
    with _eager(False, DEAD_BROKER):
        response = client.post(
            "/admin/ratings/ratinglist/mahjong/rebuild/",
            {"lists": str(rr.pk), "start": "2025-01-01", "end": "2025-03-01", "confirm": "on"},
            follow=True,
        )
        text = response.content.decode()
        assert response.status_code == 200
        assert "Очередь задач (Redis) недоступна" in text
        assert "python manage.py mahjong_rebuild --from 2025-01-01 --to 2025-03-01 --list mahjong-rr" in text
        assert "Error 111" not in text
        assert "Connection refused" not in text
        response = client.post(
            "/admin/ratings/ratinglist/", {"action": "mahjong_compute_today", "_selected_action": [rr.pk]}, follow=True
        )
        assert response.status_code == 200
        assert "Очередь задач (Redis) недоступна" in response.content.decode()
    assert not RatingSnapshot.objects.exists()
    assert set(JobRun.objects.values_list("kind", "state")) == {
        ("mahjong_rebuild", JobState.FAILED),
        ("mahjong_daily", JobState.FAILED),
    }


def test_a_run_whose_worker_went_silent_is_lost_and_can_run_again(client):
    rr = _mahjong_history()
    staff = _publisher(client)
    stale = timezone.now() - datetime.timedelta(minutes=10)
    run = JobRun.objects.create(
        task_id="lost-one",
        kind="mahjong_rebuild",
        args={"args": [[rr.pk], "2025-01-01", "2025-03-01"]},
        started_by=staff,
        state=JobState.RUNNING,
        created_at=stale,
        started_at=stale,
        heartbeat_at=stale,
        done=31,
        total=60,
        step="2025-01-31",
    )
    state = client.get(f"/en/admin/ratings/jobrun/{run.pk}/change/", {"format": "json"}).json()
    assert (state["state"], state["running"]) == ("lost", False)
    assert "The worker stopped answering during the step «2025-01-31» (31 of 60)" in state["summary"]
    assert "Written: 2025-01-01 – 2025-01-31. Not written: 2025-02-01 – 2025-03-01" in state["summary"]
    page = client.get(f"/en/admin/ratings/jobrun/{run.pk}/change/").content.decode()
    assert 'id="job-again"' in page
    assert "rewrites published snapshots" in page  # a destructive job asks once more
    # Without the confirmation nothing starts; with it, the same job runs again (here, in process).
    client.post(f"/en/admin/ratings/jobrun/{run.pk}/again/")
    assert JobRun.objects.count() == 1
    with _eager(True):
        response = client.post(f"/en/admin/ratings/jobrun/{run.pk}/again/", {"confirm": "yes"})
    again = JobRun.objects.exclude(pk=run.pk).get()
    assert response["Location"].endswith(f"/jobrun/{again.pk}/change/")
    assert again.state == JobState.SUCCEEDED
    assert again.outcome == {"mahjong-rr": 2}


def test_a_run_no_worker_took_is_lost_with_nothing_done(client):
    _publisher(client)
    old = timezone.now() - jobs.QUEUE_EXPIRY - datetime.timedelta(minutes=1)
    run = JobRun.objects.create(task_id="never-taken", kind="mahjong_daily", args={"args": []}, created_at=old)
    fresh = JobRun.objects.create(task_id="just-queued", kind="mahjong_daily", args={"args": []})
    text = client.get("/en/admin/ratings/jobrun/").content.decode()
    assert "No worker took the job within 60 minutes; nothing was done." in text
    run.refresh_from_db()
    fresh.refresh_from_db()
    assert (run.state, fresh.state) == (JobState.LOST, JobState.QUEUED)


def test_a_failed_range_rebuild_names_the_dates_written_and_not(client, monkeypatch):
    rr = _mahjong_history()
    original = mahjong_services._store

    def store(**kwargs):
        if kwargs["as_of"] >= datetime.date(2025, 2, 1):
            raise RuntimeError("disk full")
        return original(**kwargs)

    monkeypatch.setattr(mahjong_services, "_store", store)
    _publisher(client)
    with _eager(True):
        response = client.post(
            "/en/admin/ratings/ratinglist/mahjong/rebuild/",
            {"lists": str(rr.pk), "start": "2025-01-01", "end": "2025-03-01", "confirm": "on"},
            follow=True,
        )
    assert response.status_code == 200
    run = JobRun.objects.get()
    assert run.state == JobState.FAILED
    assert "disk full" in run.error
    assert "Written: 2025-01-01 – 2025-01-31. Not written: 2025-02-01 – 2025-03-01" in run.error
    assert "Not written: 2025-02-01 – 2025-03-01" in response.content.decode()
    assert list(rr.snapshots.values_list("as_of", flat=True)) == [datetime.date(2025, 1, 1)]


def test_a_scheduled_run_is_recorded_too():
    with _eager(True):
        gorbunov_tasks.gorbunov_publish_weekly.apply()
    run = JobRun.objects.get()
    assert (run.kind, run.source, run.state, run.started_by) == ("gorbunov_weekly", "schedule", "succeeded", None)


def test_every_job_from_the_command_line_is_recorded(capsys):
    rr = _mahjong_history()
    call_command("mahjong_daily", "--date", "2025-02-01")
    call_command("mahjong_rebuild", "--from", "2025-01-01", "--to", "2025-02-10", "--list", "mahjong-rr")
    call_command("gorbunov_publish")
    assert set(JobRun.objects.values_list("kind", "source", "state")) >= {
        ("mahjong_daily", "command", "succeeded"),
        ("mahjong_rebuild", "command", "succeeded"),
    }
    capsys.readouterr()
    call_command("jobs")
    out = capsys.readouterr().out
    assert "Mahjong: rebuild a range of dates" in out
    assert "snapshots written: mahjong-rr: 2" in out
    lost = JobRun.objects.create(
        task_id="x",
        kind="mahjong_rebuild",
        args={"args": [[rr.pk], "2025-01-01", "2025-01-05"]},
        state=JobState.RUNNING,
        heartbeat_at=timezone.now() - datetime.timedelta(hours=1),
    )
    call_command("jobs", "--check")
    lost.refresh_from_db()
    assert lost.state == JobState.LOST
    with _eager(True):
        call_command("jobs", "--again", str(lost.pk))
    assert JobRun.objects.filter(kind="mahjong_rebuild", state="succeeded", source="admin").exists()


def test_organisers_do_not_see_job_runs(client):
    run = JobRun.objects.create(task_id="t", kind="mahjong_daily", args={"args": []})
    client.force_login(organiser())
    assert client.get("/admin/ratings/jobrun/").status_code == 403
    assert client.get(f"/admin/ratings/jobrun/{run.pk}/change/").status_code == 403
    assert client.post(f"/admin/ratings/jobrun/{run.pk}/again/").status_code == 403


@pytest.mark.celery_worker
def test_a_job_started_in_the_admin_runs_on_a_real_worker(celery_worker, client):
    import time

    _mahjong_history()
    staff = _publisher(client)
    old_routes = app.conf.task_routes
    app.conf.update(task_routes={"ratings.*": {"queue": celery_worker}})
    try:
        rr = RatingList.objects.get(slug="mahjong-rr")
        response = client.post(
            "/en/admin/ratings/ratinglist/mahjong/rebuild/",
            {"lists": str(rr.pk), "start": "2025-01-01", "end": "2025-03-01", "confirm": "on"},
        )
        assert response.status_code == 302
        run = JobRun.objects.get()
        assert not run.in_process
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            run.refresh_from_db()
            if run.state not in (JobState.QUEUED, JobState.RUNNING):
                break
            time.sleep(0.3)
    finally:
        app.conf.update(task_routes=old_routes)
    assert (run.state, run.started_by, run.source) == (JobState.SUCCEEDED, staff, "admin")
    assert run.started_at is not None
    assert run.finished_at >= run.started_at
    assert run.outcome == {"mahjong-rr": 2}
    page = client.get(f"/en/admin/ratings/jobrun/{run.pk}/change/").content.decode()
    assert "Rebuilt 2025-01-01 – 2025-03-01; snapshots written: mahjong-rr: 2." in page


def _wait_for(run, states, seconds=60.0):
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.state in states:
            return run
        time.sleep(0.1)
    pytest.fail(f"run {run.pk} stayed {run.state} for {seconds} s")


@pytest.mark.celery_worker
def test_a_worker_killed_mid_run_leaves_nothing_half_written_and_the_run_is_lost_then_run_again(celery_workers, client):
    """The whole way, with real processes: a rebuild is running on a real worker (held at the list's lock by another
    connection, so that the kill lands mid-run), the worker is killed with SIGKILL, nothing of the range is written,
    staff see the run lost with what was and was not written, run it again, and a new worker does it. Only the two
    minutes of silence after which a run counts as lost are not waited for: the heartbeat is moved back instead."""
    import psycopg
    from django.db import connection
    from django.db.models import F

    rr = _mahjong_history()
    staff = _publisher(client)
    snapshots_before = RatingSnapshot.objects.filter(rating_list=rr).count()
    first = celery_workers()
    old_routes = app.conf.task_routes
    app.conf.update(task_routes={"ratings.*": {"queue": celery_workers.queue}})
    db = connection.settings_dict
    holder = psycopg.connect(
        host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"], autocommit=False
    )
    try:
        with holder.cursor() as cursor:
            cursor.execute(f'SELECT id FROM "{RatingList._meta.db_table}" WHERE id = %s FOR UPDATE', [rr.pk])
        response = client.post(
            "/en/admin/ratings/ratinglist/mahjong/rebuild/",
            {"lists": str(rr.pk), "start": "2025-01-01", "end": "2025-03-01", "confirm": "on"},
        )
        assert response.status_code == 302
        run = _wait_for(JobRun.objects.get(), {JobState.RUNNING})
        with connection.cursor() as cursor:  # the worker's transaction is waiting for the list's lock
            for _ in range(100):
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE wait_event_type = 'Lock' AND datname = current_database()"
                )
                if cursor.fetchone()[0]:
                    break
                __import__("time").sleep(0.1)
            else:
                pytest.fail("the worker never reached the list's lock")
        first.kill()
        first.wait(timeout=20)
        holder.rollback()
        run.refresh_from_db()
        assert run.state == JobState.RUNNING  # nobody told the database: that is what a lost run looks like
        assert RatingSnapshot.objects.filter(rating_list=rr).count() == snapshots_before

        JobRun.objects.filter(pk=run.pk).update(heartbeat_at=F("heartbeat_at") - jobs.LOST_AFTER)
        state = client.get(f"/en/admin/ratings/jobrun/{run.pk}/change/", {"format": "json"}).json()
        assert (state["state"], state["running"]) == ("lost", False)
        assert "The worker stopped answering" in state["summary"]
        assert "Nothing was written: no date of 2025-01-01 – 2025-03-01 was finished." in state["summary"]

        response = client.post(f"/en/admin/ratings/jobrun/{run.pk}/again/", {"confirm": "yes"})
        again = JobRun.objects.exclude(pk=run.pk).get()
        assert response["Location"].endswith(f"/jobrun/{again.pk}/change/")
        celery_workers()
        again = _wait_for(again, {JobState.SUCCEEDED, JobState.FAILED, JobState.LOST})
    finally:
        holder.close()
        app.conf.update(task_routes=old_routes)
    assert (again.state, again.started_by, again.outcome) == (JobState.SUCCEEDED, staff, {"mahjong-rr": 2})
    assert RatingSnapshot.objects.filter(rating_list=rr).count() == snapshots_before + 2


class _Killed(BaseException):
    """Stands for SIGKILL: ``job_execute`` records an ``Exception`` as a failure; after a kill nothing is recorded."""


def test_a_rebuild_killed_after_some_dates_reports_the_dates_it_committed(client, monkeypatch):
    """Issue 27: a rebuild killed 4 s in was reported "Nothing was written: no date … was finished" though 21 dates
    were committed (the report read ``done``, saved by the 15-s heartbeat). Each date now records itself in its own
    transaction, so the lost run's report names exactly the dates whose snapshots were committed."""
    rr = _mahjong_history()
    mahjong_tournament(players=[PlayerFactory() for _ in range(16)], end=datetime.date(2025, 1, 15))
    original = mahjong_services._store

    def store(**kwargs):
        if kwargs["as_of"] >= datetime.date(2025, 2, 1):
            raise _Killed
        return original(**kwargs)

    monkeypatch.setattr(mahjong_services, "_store", store)
    staff = _publisher(client)

    def rebuild(progress):
        return mahjong_services.mahjong_rebuild(
            rating_lists=[rr],
            start=datetime.date(2025, 1, 1),
            end=datetime.date(2025, 3, 1),
            progress=progress,
            written=progress.written,
        )

    with pytest.raises(_Killed):
        jobs.job_run_here(kind="mahjong_rebuild", args=[[rr.pk], "2025-01-01", "2025-03-01"], call=rebuild, user=staff)
    committed = sorted(rr.snapshots.values_list("as_of", flat=True))
    assert committed == [datetime.date(2025, 1, 1), datetime.date(2025, 1, 15)]
    # What the database holds of a worker killed then: running, the heartbeat's step count still 0, silent since.
    stale = timezone.now() - jobs.LOST_AFTER - datetime.timedelta(seconds=1)
    JobRun.objects.update(in_process=False, done=0, total=0, heartbeat_at=stale)
    run = JobRun.objects.get()
    state = client.get(f"/en/admin/ratings/jobrun/{run.pk}/change/", {"format": "json"}).json()
    assert state["state"] == "lost"
    assert "Nothing was written" not in state["summary"]
    assert "on 2 dates up to 2025-01-15: mahjong-rr: 2 written, 0 removed" in state["summary"]
    assert "Written: 2025-01-01 – 2025-01-15. Not written: 2025-01-16 – 2025-03-01" in state["summary"]
    assert list(run.steps.values_list("step", "detail")) == [
        ("2025-01-01", {"list": "mahjong-rr", "snapshot": "written"}),
        ("2025-01-15", {"list": "mahjong-rr", "snapshot": "written"}),
    ]


def test_a_date_rolled_back_is_not_recorded_as_written():
    """The record of a date is in the date's transaction: a date that fails after its record is neither written nor
    recorded."""
    rr = _mahjong_history()
    run = JobRun.objects.create(
        task_id="t", kind="mahjong_rebuild", args={"args": [[rr.pk], "2025-01-01", "2025-03-01"]}
    )
    progress = jobs.RunProgress(run.pk, lambda *args: None)

    def written(step, **detail):
        progress.written(step, **detail)
        if step == "2025-02-01":
            raise RuntimeError("disk full")  # after the record: the date's transaction takes both back

    with pytest.raises(RuntimeError):
        mahjong_services.mahjong_rebuild(
            rating_lists=[rr], start=datetime.date(2025, 1, 1), end=datetime.date(2025, 3, 1), written=written
        )
    assert list(rr.snapshots.values_list("as_of", flat=True)) == [datetime.date(2025, 1, 1)]
    assert list(run.steps.values_list("step", flat=True)) == ["2025-01-01"]


@pytest.mark.celery_worker
def test_a_worker_killed_after_some_dates_is_reported_with_the_dates_it_committed(celery_workers, client):
    """Issue 27 with real processes: a rebuild on a real worker commits 2025-01-01, then waits at 2025-02-01 (another
    connection holds an uncommitted snapshot of that date, so the worker's insert waits on the unique key), and is
    killed with SIGKILL. Its heartbeat has said nothing yet; the lost run's report names the committed date."""
    import psycopg
    from django.db import connection
    from django.db.models import F

    rr = _mahjong_history()
    _publisher(client)
    first = celery_workers()
    old_routes = app.conf.task_routes
    app.conf.update(task_routes={"ratings.*": {"queue": celery_workers.queue}})
    db = connection.settings_dict
    holder = psycopg.connect(
        host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"], autocommit=False
    )
    try:
        with holder.cursor() as cursor:
            cursor.execute(
                f'INSERT INTO "{RatingSnapshot._meta.db_table}" (rating_list_id, as_of, computed_at, summary) '
                "VALUES (%s, '2025-02-01', now(), '{}')",
                [rr.pk],
            )
        response = client.post(
            "/en/admin/ratings/ratinglist/mahjong/rebuild/",
            {"lists": str(rr.pk), "start": "2025-01-01", "end": "2025-03-01", "confirm": "on"},
        )
        assert response.status_code == 302
        run = _wait_for(JobRun.objects.get(), {JobState.RUNNING})
        with connection.cursor() as cursor:  # the worker waits at 2025-02-01, 2025-01-01 committed
            for _ in range(200):
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE wait_event_type = 'Lock' AND datname = current_database()"
                )
                if cursor.fetchone()[0]:
                    break
                __import__("time").sleep(0.1)
            else:
                pytest.fail("the worker never reached 2025-02-01")
        first.kill()
        first.wait(timeout=20)
        holder.rollback()
        assert list(rr.snapshots.values_list("as_of", flat=True)) == [datetime.date(2025, 1, 1)]
        JobRun.objects.filter(pk=run.pk).update(heartbeat_at=F("heartbeat_at") - jobs.LOST_AFTER)
        state = client.get(f"/en/admin/ratings/jobrun/{run.pk}/change/", {"format": "json"}).json()
    finally:
        holder.close()
        app.conf.update(task_routes=old_routes)
    assert state["state"] == "lost"
    assert "Nothing was written" not in state["summary"]
    assert "on 1 date up to 2025-01-01: mahjong-rr: 1 written, 0 removed" in state["summary"]
    assert "Not written: 2025-" in state["summary"]


def test_a_weekly_publication_killed_between_lists_names_the_lists_it_published(client, monkeypatch):
    """The Monday job publishes each list in its own transaction, which records it: a run killed before the second
    list names the first as published, though its outcome was never stored."""
    from ratings.gorbunov import services as gorbunov_services
    from tests.factories import ResultFactory, TournamentFactory

    gorbunov_services.gorbunov_setup_defaults()
    tournament = TournamentFactory(start_date=timezone.localdate() - datetime.timedelta(days=14), k=2)
    for place in range(1, 5):
        ResultFactory(tournament=tournament, place=place)
    original = gorbunov_services.gorbunov_publish
    first = RatingList.objects.filter(engine="gorbunov", is_active=True).order_by("pk").first()

    def publish(*, rating_list_id, **kwargs):
        if rating_list_id != first.pk:
            raise _Killed
        return original(rating_list_id=rating_list_id, **kwargs)

    monkeypatch.setattr(gorbunov_services, "gorbunov_publish", publish)
    with pytest.raises(_Killed):
        jobs.job_run_here(
            kind="gorbunov_weekly",
            args=[],
            call=lambda progress: gorbunov_services.gorbunov_publish_all(written=progress.written),
        )
    stale = timezone.now() - jobs.LOST_AFTER - datetime.timedelta(seconds=1)
    JobRun.objects.update(in_process=False, heartbeat_at=stale)
    _publisher(client)
    run = JobRun.objects.get()
    summary = client.get(f"/en/admin/ratings/jobrun/{run.pk}/change/", {"format": "json"}).json()["summary"]
    assert f"Published before the run stopped: {first.slug} (" in summary
    assert first.snapshots.exists()
