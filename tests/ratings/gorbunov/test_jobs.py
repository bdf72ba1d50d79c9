"""The jobs around the publication: concurrency on PostgreSQL, the weekly task through a real worker, the admin's
actions and their progress page."""

import datetime
import threading

import pytest
from django.db import connection, connections

from ratings.gorbunov import services, tasks
from ratings.gorbunov.jobs import iso_week
from ratings.models import JobRun, RatingChange, RatingEntry, RatingSnapshot
from tests.factories import federation_staff
from tests.ratings.gorbunov.conftest import make_tournament, week


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_publications_do_not_both_write(postgres, gorbunov_list, season, monkeypatch):
    services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(3))
    entered = threading.Event()
    release = threading.Event()
    original = services._compute

    def slow_compute(**kwargs):
        entered.set()
        release.wait(10)
        return original(**kwargs)

    monkeypatch.setattr(services, "_compute", slow_compute)
    outcomes = {}

    def run(name):
        try:
            outcomes[name] = services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(4)).status
        except Exception as error:  # pragma: no cover - reported by the assertion below
            outcomes[name] = repr(error)
        finally:
            connections.close_all()

    first = threading.Thread(target=run, args=("first",))
    first.start()
    assert entered.wait(10)
    second = threading.Thread(target=run, args=("second",))
    second.start()
    second.join(1.0)
    assert second.is_alive(), "the second publication must wait for the lock"
    release.set()
    first.join(20)
    second.join(20)
    assert outcomes == {"first": "published", "second": "already published"}
    assert RatingSnapshot.objects.filter(rating_list=gorbunov_list, as_of=week(4)).count() == 1
    snapshot = RatingSnapshot.objects.get(rating_list=gorbunov_list, as_of=week(4))
    assert RatingChange.objects.filter(snapshot=snapshot).count() == len(
        {(c.tournament_id, c.player_id) for c in RatingChange.objects.filter(snapshot=snapshot)}
    )
    assert connection.vendor == "postgresql"


@pytest.mark.celery_worker
def test_the_weekly_job_end_to_end_through_a_real_worker(celery_worker, gorbunov_list, field):
    services.gorbunov_setup_defaults()
    from django.utils import timezone

    last_week = timezone.localdate() - datetime.timedelta(days=7)
    tournament = make_tournament(field[:8], last_week, k=2)
    result = tasks.gorbunov_publish_weekly.apply_async(queue=celery_worker)
    outcomes = result.get(timeout=60)
    statuses = {o["rating_list_id"]: o["status"] for o in outcomes}
    assert statuses[gorbunov_list.pk] == "published"
    assert RatingChange.objects.filter(rating_list=gorbunov_list, tournament=tournament).count() == 8
    again = tasks.gorbunov_publish_weekly.apply_async(queue=celery_worker).get(timeout=60)
    assert {o["rating_list_id"]: o["status"] for o in again}[gorbunov_list.pk] == "already published"
    assert {o["status"] for o in again} <= {"already published", "nothing to publish"}


@pytest.mark.django_db
def test_staff_publish_now_and_see_what_it_did(client, gorbunov_list, season, django_capture_on_commit_callbacks):
    from django.contrib.auth.models import Permission

    from federation.celery import app

    old = app.conf.task_always_eager
    app.conf.task_always_eager = True  # the embedded default: the task runs inside the action's request
    staff = federation_staff(username="olga")
    staff.user_permissions.add(
        *Permission.objects.filter(codename__in=["publish_ratinglist", "view_ratinglist", "change_ratinglist"])
    )
    client.force_login(staff)
    try:
        response = client.post(
            "/en/admin/ratings/ratinglist/",
            {"action": "gorbunov_publish_now", "_selected_action": [gorbunov_list.pk]},
            follow=True,
        )
        assert response.status_code == 200
        text = response.content.decode()
        assert 'id="task-progress"' in text
        assert gorbunov_list.snapshots.exists()
        run = JobRun.objects.get(kind="gorbunov_publish")
        assert (run.state, run.started_by, run.source) == ("succeeded", staff, "admin")
        players = RatingEntry.objects.filter(snapshot=gorbunov_list.snapshots.latest("as_of")).count()
        assert f"published {iso_week(run.outcome['weeks'][0])}" in text
        assert f"{players} players, {run.outcome['changes']} changes" in text
        # A second publication the same week: nothing to publish, and staff are told so.
        again = client.post(
            "/en/admin/ratings/ratinglist/",
            {"action": "gorbunov_publish_now", "_selected_action": [gorbunov_list.pk]},
            follow=True,
        ).content.decode()
        assert "nothing to publish: this week&#x27;s list is published already" in again
        # The rebuild asks first, naming the weeks it rewrites; nothing happens until confirmed.
        weeks = gorbunov_list.snapshots.count()
        response = client.post(
            "/en/admin/ratings/ratinglist/", {"action": "gorbunov_rebuild", "_selected_action": [gorbunov_list.pk]}
        )
        text = response.content.decode()
        assert f"{weeks} published weeks" in text
        assert not JobRun.objects.filter(kind="gorbunov_rebuild").exists()
        response = client.post(
            "/en/admin/ratings/ratinglist/",
            {"action": "gorbunov_rebuild", "_selected_action": [gorbunov_list.pk], "confirm": "yes"},
            follow=True,
        )
    finally:
        app.conf.task_always_eager = old
    text = response.content.decode()
    assert 'id="task-progress"' in text
    assert f"rebuilt {weeks} weeks" in text
    runs = client.get("/en/admin/ratings/jobrun/").content.decode()
    assert "olga" in runs
    assert "Gorbunov: rebuild the whole history" in runs
