"""``/health/`` for uptime monitors (django-health-check): 200 when the database, the cache, the broker and a worker
answer, else 503 naming what does not.

The broker (Redis) and the worker are checked only when the site has a broker (``CELERY_BROKER_URL``); without one
the tasks run in the web process and there is nothing more to ask. ``?format=json`` or ``Accept: application/json``
gives ``{"Database(alias='default')": "OK", ...}``, ``?format=text`` one line a check; a browser gets a page.
"""

from __future__ import annotations

import dataclasses

import celery
from django.conf import settings
from health_check.contrib.celery import Ping
from health_check.contrib.redis import Redis
from health_check.views import HealthCheckView
from redis.asyncio import Redis as RedisClient

from federation.celery import app as celery_app


@dataclasses.dataclass
class Workers(Ping):
    """At least one Celery worker answers a ping through the broker, within a second."""

    app: celery.Celery = dataclasses.field(default_factory=lambda: celery_app, repr=False)
    limit: int | None = dataclasses.field(default=1, repr=False)


def checks() -> list:
    found: list = ["health_check.checks.Database", "health_check.checks.Cache"]
    broker = settings.CELERY_BROKER_URL
    if broker and not settings.CELERY_TASK_ALWAYS_EAGER:
        found.append((Redis, {"client_factory": lambda: RedisClient.from_url(broker, socket_timeout=3)}))
        found.append(Workers)
    return found


class HealthView(HealthCheckView):
    @property
    def checks(self) -> list:
        return checks()

    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        if response.status_code == 500:  # something is down: 503, as monitors and load balancers expect
            response.status_code = 503
        return response
