"""Long jobs on rating lists (publish, rebuild) as Celery tasks that staff can follow on one progress page.

A service reports its progress through a ``Progress`` callable; the task hands it ``task_reporter(task)``, which
stores ``done``, ``total`` and ``step`` in the task's state. The admin starts a task with ``task_enqueue`` and sends
staff to the progress page (``ratings.admin``), which reads ``task_state`` and polls it as JSON until the task
ends. With tasks run eagerly (no broker) the task has run inside the request that started it, and its result
waits in the in-process result backend (``CELERY_RESULT_BACKEND``), so the page shows it all the same.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

#: ``progress(done, total, step)``: ``done`` of ``total`` steps finished, ``step`` names the one under way.
Progress = Callable[[int, int, str], None]

RUNNING = {"PENDING", "RECEIVED", "STARTED", "PROGRESS", "RETRY"}


def task_reporter(task) -> Progress:
    """A ``Progress`` that stores the numbers in the task's state (nothing when the task runs eagerly)."""

    def report(done: int, total: int, step: str = "") -> None:
        if task.request.id and not task.request.called_directly and not task.request.is_eager:
            task.update_state(state="PROGRESS", meta={"done": done, "total": total, "step": step})

    return report


def task_enqueue(task, *, args: Sequence[Any]) -> str:
    """Queue ``task`` once the surrounding transaction commits, under a new id for the progress page to follow."""
    task_id = uuid.uuid4().hex
    transaction.on_commit(lambda: task.apply_async(args=list(args), task_id=task_id))
    return task_id


def task_state(task_id: str) -> dict[str, Any]:
    """What the progress page shows: the state, the numbers reported so far, the result or the error."""
    from celery.result import AsyncResult

    from federation.celery import app

    result = AsyncResult(task_id, app=app)
    state = result.state
    info = result.info
    payload: dict[str, Any] = {"state": state, "running": state in RUNNING, "done": 0, "total": 0, "step": ""}
    if state == "PROGRESS" and isinstance(info, dict):
        payload.update({key: info.get(key, payload[key]) for key in ("done", "total", "step")})
    elif state == "SUCCESS":
        payload["result"] = info
    elif state == "FAILURE":
        payload["error"] = str(info)
    return payload
