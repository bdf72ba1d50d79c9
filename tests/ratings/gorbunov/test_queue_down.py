"""An action that needs the task queue says at once that it cannot start when Redis is down (before, "publish now"
waited about 20 s for Celery's result store to give up reconnecting), and it starts again when Redis is back."""

import subprocess
import time
from contextlib import contextmanager

import pytest
from django.contrib.auth.models import Permission

from federation.celery import app
from ratings.models import JobRun, JobState, RatingSnapshot
from tests.factories import federation_staff
from tests.ratings.gorbunov.conftest import make_tournament, week

pytestmark = pytest.mark.django_db

PORT = 6397  # a Redis of this test's own, started and stopped by it


@contextmanager
def _queue_at(url: str):
    """Jobs sent to a broker and result store at ``url`` instead of running in the test's process."""
    old = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "broker_write_url", "result_backend")}
    app.conf.update(task_always_eager=False, broker_url=url, broker_write_url=url, result_backend=url)
    _forget_connections()
    try:
        yield
    finally:
        app.conf.update(old)
        _forget_connections()


def _forget_connections():
    """The producer pool and the result store are made again from the settings at the next job."""
    app._pool = app.amqp._producer_pool = None
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)


def _publish_now(client, gorbunov_list):
    started = time.monotonic()
    response = client.post(
        "/admin/ratings/ratinglist/",
        {"action": "gorbunov_publish_now", "_selected_action": [gorbunov_list.pk]},
        follow=True,
    )
    return response, time.monotonic() - started


def test_publish_now_with_redis_down_says_so_at_once_and_works_when_it_is_back(client, gorbunov_list, field):
    make_tournament(field[:6], week(1), k=2)
    staff = federation_staff(username="olga")
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["publish_ratinglist", "view_ratinglist"]))
    client.force_login(staff)
    with _queue_at(f"redis://127.0.0.1:{PORT}/0"):
        response, seconds = _publish_now(client, gorbunov_list)
        assert response.status_code == 200
        assert "Очередь задач (Redis) недоступна" in response.content.decode()
        # One connection attempt of at most a second, not twenty a second apart; the bound leaves room for a loaded
        # machine's rendering of the admin page after it.
        assert seconds < 15
        assert app.backend.retry_policy["max_retries"] == 0
        redis = subprocess.Popen(
            ["redis-server", "--port", str(PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        try:
            time.sleep(0.5)
            response, seconds = _publish_now(client, gorbunov_list)
            assert response.status_code == 200
            assert "Очередь задач (Redis) недоступна" not in response.content.decode()
        finally:
            redis.terminate()
            redis.wait()
    assert not RatingSnapshot.objects.exists()  # queued, not run: no worker listens on that Redis
    assert list(JobRun.objects.order_by("pk").values_list("state", flat=True)) == [JobState.FAILED, JobState.QUEUED]
