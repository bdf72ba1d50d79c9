"""Runs of the long jobs (publish, rebuild, the nightly computation), recorded for staff as ``JobRun`` rows.

Every way a job starts goes through here: the admin (``job_start``: the run is queued for a worker, or run in the
request when there is no broker), the schedule (the task finds no run and records one) and the command line
(``job_run_here``). The task itself calls ``job_execute``, which marks the run running, keeps a heartbeat while it
works (a thread on its own database connection, so staff see it outside the job's transaction), and stores what it
changed, or why it failed and what was and was not written.

Decisions where the brief is silent:

* A run is **lost** when its heartbeat (every ``HEARTBEAT_SECONDS``) is older than ``LOST_AFTER``, or when no worker
  took it within ``QUEUE_EXPIRY`` (the message itself expires then, so a worker that comes up later does not run a
  job staff have already started again). Tasks are acknowledged late (``CELERY_TASK_ACKS_LATE``): a worker killed
  mid-run leaves the message with the broker, which (Redis) hands it out again only after its visibility timeout of
  an hour, by when the message has expired; staff see the run lost after ``LOST_AFTER`` and run it again. Should a
  message ever be delivered twice, the services are idempotent under their lists' locks: the second delivery finds
  the work done or does it once.
* With the queue unreachable, nothing is queued and nothing is written: the run is recorded as failed with a
  sentence saying so, and the admin shows that sentence, never the broker's own error.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connections
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.models import JobRun, JobSource, JobState, JobStep

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15
LOST_AFTER = dt.timedelta(seconds=120)
QUEUE_EXPIRY = dt.timedelta(hours=1)
#: A queued run waiting longer than this is told to staff as a worker that may be down.
WORKER_SLOW_SECONDS = 30


@dataclass(frozen=True)
class JobKind:
    label: Any
    task: str  # the Celery task's name
    describe: str  # dotted path: (run) -> sentence of what the job changed
    written: str = ""  # dotted path: (run) -> sentence of what a failed run wrote; "" = one transaction, nothing
    destructive: bool = False

    @property
    def task_module(self) -> str:
        return ".".join(self.describe.split(".")[:2]) + ".tasks"


JOBS: dict[str, JobKind] = {
    "gorbunov_publish": JobKind(
        gettext_lazy("Gorbunov: publish this week's list"),
        "ratings.gorbunov.publish",
        "ratings.gorbunov.jobs.describe_publication",
    ),
    "gorbunov_rebuild": JobKind(
        gettext_lazy("Gorbunov: rebuild the whole history"),
        "ratings.gorbunov.rebuild",
        "ratings.gorbunov.jobs.describe_publication",
        destructive=True,
    ),
    "gorbunov_weekly": JobKind(
        gettext_lazy("Gorbunov: the weekly publication of every list"),
        "ratings.gorbunov.publish_weekly",
        "ratings.gorbunov.jobs.describe_weekly",
        written="ratings.gorbunov.jobs.written_weekly",
    ),
    "mahjong_daily": JobKind(
        gettext_lazy("Mahjong: today's lists"),
        "ratings.mahjong.tasks.mahjong_daily",
        "ratings.mahjong.jobs.describe_daily",
    ),
    "mahjong_rebuild": JobKind(
        gettext_lazy("Mahjong: rebuild a range of dates"),
        "ratings.mahjong.tasks.mahjong_rebuild",
        "ratings.mahjong.jobs.describe_rebuild",
        written="ratings.mahjong.jobs.written_rebuild",
        destructive=True,
    ),
    "history_import": JobKind(
        gettext_lazy("Import a federation's history"),
        "ratings.history_import",
        "ratings.movein.jobs.describe_import",
        written="ratings.movein.jobs.written_import",
    ),
    "backup": JobKind(
        gettext_lazy("Backup of the database"),
        "federation.backups.backup_nightly",
        "federation.backups.jobs.describe_backup",
        written="federation.backups.jobs.written_backup",
    ),
}


class JobNotStarted(Exception):
    """The job could not be queued (the broker is unreachable); nothing was done. ``run`` records it."""

    def __init__(self, message: str, run: JobRun) -> None:
        super().__init__(message)
        self.run = run


def job_label(kind: str) -> str:
    job = JOBS.get(kind)
    return str(job.label) if job else kind


def _eager() -> bool:
    from federation.celery import app

    return bool(app.conf.task_always_eager)


def job_start(*, kind: str, args: Sequence[Any], user=None, source: str = JobSource.ADMIN) -> JobRun:
    """Record a run and hand it to a worker (or, with no broker, run it here and now).

    Raises ``JobNotStarted`` when the queue cannot be reached: the run is stored as failed, nothing was written.
    A job that fails while running in this process is recorded by ``job_execute`` and not raised: the run says it.
    """
    from federation.celery import app

    job = JOBS[kind]
    eager = _eager()
    run = JobRun.objects.create(
        task_id=uuid.uuid4().hex,
        kind=kind,
        args={"args": list(args)},
        source=source,
        started_by=user if user is not None and user.is_authenticated else None,
        in_process=eager,
    )
    import_module(job.task_module)
    task = app.tasks[job.task]
    if eager:
        try:
            task.apply_async(args=list(args), task_id=run.task_id)
        except Exception:  # recorded on the run by job_execute
            logger.info("job %s failed in process", run.pk, exc_info=True)
        run.refresh_from_db()
        return run
    try:
        task.apply_async(args=list(args), task_id=run.task_id, expires=QUEUE_EXPIRY.total_seconds(), retry=False)
    except Exception as error:
        logger.warning("job %s not queued: %r", run.pk, error)
        message = _(
            "The task queue (Redis) cannot be reached, so the job was not started and nothing was changed. "
            "Try again when the queue is up, or run it from the command line: %(command)s"
        ) % {"command": job_command(run)}
        JobRun.objects.filter(pk=run.pk).update(state=JobState.FAILED, error=message, finished_at=timezone.now())
        run.refresh_from_db()
        raise JobNotStarted(message, run) from None
    return run


def job_command(run: JobRun) -> str:
    """The command that does the same job by hand (shown when the queue is down, and in a lost run's page)."""
    args = run.args.get("args", [])
    if run.kind in ("gorbunov_publish", "gorbunov_rebuild"):
        from ratings.models import RatingList

        slug = RatingList.objects.filter(pk=args[0]).values_list("slug", flat=True).first() if args else None
        command = "python manage.py gorbunov_publish" + (f" --list {slug}" if slug else "")
        return command + (" --rebuild" if run.kind == "gorbunov_rebuild" else "")
    if run.kind == "gorbunov_weekly":
        return "python manage.py gorbunov_publish"
    if run.kind == "mahjong_daily":
        return "python manage.py mahjong_daily"
    if run.kind == "mahjong_rebuild" and len(args) == 3:
        from ratings.models import RatingList

        slugs = RatingList.objects.filter(pk__in=args[0]).order_by("pk").values_list("slug", flat=True)
        lists = "".join(f" --list {slug}" for slug in slugs)
        return f"python manage.py mahjong_rebuild --from {args[1]} --to {args[2]}{lists}"
    if run.kind == "history_import":
        return "python manage.py import_history FILE"
    if run.kind == "backup":
        return "python manage.py backup"
    return "python manage.py jobs"


class _Heartbeat:
    """Writes the run's heartbeat and progress every few seconds from its own thread (its own connection, outside
    the job's transaction), until stopped."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self.progress = {"done": 0, "total": 0, "step": ""}
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"job-{run_id}-heartbeat", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=HEARTBEAT_SECONDS * 2)

    def _beat(self) -> None:
        try:
            while not self.stopped.wait(HEARTBEAT_SECONDS):
                try:
                    JobRun.objects.filter(pk=self.run_id, state=JobState.RUNNING).update(
                        heartbeat_at=timezone.now(), **{k: v for k, v in self.progress.items()}
                    )
                except Exception:  # a missed beat is no reason to stop the job
                    logger.warning("job %s: heartbeat not written", self.run_id, exc_info=True)
        finally:
            connections.close_all()


class RunProgress:
    """What ``job_execute`` hands the job: call it with ``(done, total, step)`` to say how far the job got (kept by the
    heartbeat, for the page; a lower bound at best), and call ``written(step, **detail)`` inside the transaction that
    writes a step's data, to record that step (a ``JobStep`` row, committed with the data or not at all). A failed
    or lost run's report of what it wrote reads those rows (``job_steps``)."""

    def __init__(self, run_id: int, on_progress: Callable[[int, int, str], None]) -> None:
        self.run_id = run_id
        self._on_progress = on_progress

    def __call__(self, done: int, total: int, step: str = "") -> None:
        self._on_progress(done, total, step)

    def written(self, step: str, **detail: Any) -> None:
        JobStep.objects.create(run_id=self.run_id, step=str(step)[:200], detail=detail)


def job_steps(run: JobRun) -> list[JobStep]:
    """The steps the run wrote, in the order written."""
    return list(JobStep.objects.filter(run=run).order_by("pk"))


def job_execute(task, *, kind: str, args: Sequence[Any], call: Callable[[RunProgress], Any]) -> Any:
    """Run ``call(progress)`` as the run of ``task`` (found by the task's id, or recorded now for a scheduled
    run), keeping the heartbeat, then store the outcome or the failure. Returns ``call``'s outcome.

    ``progress`` is a ``RunProgress``: a job whose steps commit one by one records each with ``progress.written``."""
    task_id = getattr(task.request, "id", None) or uuid.uuid4().hex
    eager = bool(getattr(task.request, "is_eager", False))
    run, _created = JobRun.objects.get_or_create(
        task_id=task_id,
        defaults={"kind": kind, "args": {"args": list(args)}, "source": JobSource.SCHEDULE, "in_process": eager},
    )
    now = timezone.now()
    JobRun.objects.filter(pk=run.pk).update(
        state=JobState.RUNNING, started_at=now, heartbeat_at=now, error="", finished_at=None
    )
    beat = None if eager else _Heartbeat(run.pk)
    state = {"done": 0, "total": 0, "step": ""}

    def on_progress(done: int, total: int, step: str = "") -> None:
        state.update(done=done, total=total, step=str(step)[:200])
        if beat is not None:
            beat.progress = dict(state)

    progress = RunProgress(run.pk, on_progress)

    if beat is not None:
        beat.start()
    try:
        outcome = call(progress)
    except Exception as error:
        if beat is not None:
            beat.stop()
        run.refresh_from_db()
        run.done, run.total, run.step = state["done"], state["total"], state["step"]
        run.state = JobState.FAILED
        run.error = failure_text(run, error)
        run.finished_at = timezone.now()
        run.save(update_fields=["done", "total", "step", "state", "error", "finished_at"])
        raise
    if beat is not None:
        beat.stop()
    JobRun.objects.filter(pk=run.pk).update(
        state=JobState.SUCCEEDED,
        outcome=_jsonable(outcome),
        finished_at=timezone.now(),
        heartbeat_at=timezone.now(),
        done=state["total"] or state["done"],
        total=state["total"],
        step="",
    )
    return outcome


def _jsonable(outcome: Any) -> dict:
    if isinstance(outcome, dict):
        return outcome
    return {"items": outcome}


def failure_text(run: JobRun, error: BaseException) -> str:
    """Why the run failed and what it wrote, in the reader's language (never the raw exception alone)."""
    if isinstance(error, ValidationError):
        reason = " ".join(error.messages)
    else:
        reason = _("an unexpected error (%(type)s: %(detail)s)") % {
            "type": type(error).__name__,
            "detail": str(error)[:300],
        }
    return _("Failed: %(reason)s. %(written)s") % {"reason": reason.rstrip("."), "written": written_text(run)}


def written_text(run: JobRun) -> str:
    job = JOBS.get(run.kind)
    if job is not None and job.written:
        return import_string(job.written)(run)
    return _("Nothing was written: the job works in one transaction, so the lists are as they were.")


def job_refresh(runs) -> None:
    """Mark as lost the runs whose worker went silent or that no worker took in time (see the module's notes)."""
    now = timezone.now()
    for run in runs:
        if run.in_process:
            continue
        if run.state == JobState.RUNNING and (run.heartbeat_at or run.created_at) < now - LOST_AFTER:
            run.state = JobState.LOST
            run.error = _(
                "The worker stopped answering during the step «%(step)s» (%(done)s of %(total)s). %(written)s"
            ) % {"step": run.step or "—", "done": run.done, "total": run.total, "written": written_text(run)}
        elif run.state == JobState.QUEUED and run.created_at < now - QUEUE_EXPIRY:
            run.state = JobState.LOST
            run.error = _("No worker took the job within %(minutes)s minutes; nothing was done.") % {
                "minutes": int(QUEUE_EXPIRY.total_seconds() // 60)
            }
        else:
            continue
        run.finished_at = now
        JobRun.objects.filter(pk=run.pk, state__in=[JobState.RUNNING, JobState.QUEUED]).update(
            state=run.state, error=run.error, finished_at=now
        )


def job_summary(run: JobRun) -> str:
    """One sentence for staff: what the run changed, why it failed, or how far it is."""
    if run.state == JobState.SUCCEEDED:
        job = JOBS.get(run.kind)
        if job is None:
            return _("Done.")
        return import_string(job.describe)(run)
    if run.state in (JobState.FAILED, JobState.LOST):
        return run.error
    if run.state == JobState.QUEUED:
        text = _("Waiting for a worker since %(time)s.") % {
            "time": timezone.localtime(run.created_at).strftime("%H:%M:%S")
        }
        waited = int((timezone.now() - run.created_at).total_seconds())
        if waited >= WORKER_SLOW_SECONDS:
            text += " " + _(
                "No worker has taken it for %(seconds)s s: check that a worker runs (celery -A federation worker). "
                "If none takes it within %(minutes)s minutes, it is dropped and shown as lost, with nothing done."
            ) % {"seconds": waited, "minutes": int(QUEUE_EXPIRY.total_seconds() // 60)}
        return text
    if run.total:
        return _("Step %(done)s of %(total)s: %(step)s.") % {"done": run.done, "total": run.total, "step": run.step}
    return _("Running.")


def job_run_here(*, kind: str, args: Sequence[Any], call: Callable[[RunProgress], Any], user=None) -> JobRun:
    """A run started from the command line: recorded like any other, run in this process, failures raised."""
    run = JobRun.objects.create(
        task_id=uuid.uuid4().hex,
        kind=kind,
        args={"args": list(args)},
        source=JobSource.COMMAND,
        started_by=user,
        in_process=True,
    )

    class _Request:
        id = run.task_id
        is_eager = True

    class _Task:
        request = _Request()

    job_execute(_Task(), kind=kind, args=args, call=call)
    run.refresh_from_db()
    return run


def job_again(*, run: JobRun, user) -> JobRun:
    """Start a failed or lost run again with the same arguments."""
    return job_start(kind=run.kind, args=run.args.get("args", []), user=user)
