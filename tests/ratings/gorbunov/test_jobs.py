"""The jobs around the publication: concurrency on PostgreSQL, the weekly task through a real worker, the admin's
actions and their progress page."""

import datetime
import threading

import pytest
from django.db import connection, connections

from ratings.gorbunov import services, tasks
from ratings.models import RatingChange, RatingSnapshot
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
def test_staff_publish_now_and_see_the_progress(client, gorbunov_list, season, django_capture_on_commit_callbacks):
    from django.contrib.auth.models import Permission

    from federation.celery import app

    old = app.conf.task_always_eager
    app.conf.task_always_eager = True  # the embedded default: the task runs inside the action's request
    request_cleanup = lambda: setattr(app.conf, "task_always_eager", old)  # noqa: E731
    staff = federation_staff()
    staff.user_permissions.add(
        *Permission.objects.filter(codename__in=["publish_ratinglist", "view_ratinglist", "change_ratinglist"])
    )
    client.force_login(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/en/admin/ratings/ratinglist/",
            {"action": "gorbunov_publish_now", "_selected_action": [gorbunov_list.pk]},
            follow=True,
        )
    assert response.status_code == 200
    text = response.content.decode()
    assert 'id="task-progress"' in text
    assert gorbunov_list.snapshots.exists()
    progress = response.redirect_chain[-1][0]
    assert "status: published" in client.get(progress).content.decode()  # the task's result, once it ran
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/en/admin/ratings/ratinglist/",
            {"action": "gorbunov_rebuild", "_selected_action": [gorbunov_list.pk]},
            follow=True,
        )
    request_cleanup()
    text = response.content.decode()
    assert 'id="task-progress"' in text
    assert "rebuild" in text
    again = client.get(response.redirect_chain[-1][0]).content.decode()
    assert "status: rebuilt" in again
