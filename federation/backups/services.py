"""Backups: write one, list them, restore one, and the nightly schedule.

Decisions where the brief is silent:

* **What is backed up.** The database, whole: the federation's logo and texts live in it (``SiteIdentity``), and
  the site keeps no other uploaded file (an import's file is read and dropped), so there is no media folder to copy.
* **Retention** is a number of backups (``DJANGO_BACKUP_KEEP``, default 30: a month of nights), counted by
  django-dbbackup after each backup; a backup started by hand counts like a nightly one.
* **Restore replaces everything.** The archive is checked first (``pg_restore --list``: a file that is not one
  changes nothing); then every table of the database is dropped and the backup restored in one transaction, and
  ``migrate`` brings it to this code's version. So a backup restores the same way into an empty database (a new
  machine), into the site it came from, or into a site installed since from newer code, whose newer tables a plain
  ``pg_restore --clean`` would leave behind.
"""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

from django.conf import settings
from django.core.files.storage import storages
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

#: The beat entry of the nightly backup, in the federation's time zone.
SCHEDULE_NAME = "Backup: every night at 04:30"
TASK = "federation.backups.backup_nightly"


class RestoreError(Exception):
    """The file cannot be restored; nothing was changed."""


def _storage():
    return storages["dbbackup"]


def backup_list() -> list[dict]:
    """The backups kept, newest first: ``{"name", "path", "bytes", "modified"}``."""
    storage = _storage()
    try:
        names = storage.listdir("")[1]
    except FileNotFoundError:
        return []
    rows = [
        {
            "name": name,
            "path": Path(storage.path(name)),
            "bytes": storage.size(name),
            "modified": storage.get_modified_time(name),
        }
        for name in names
        if not name.endswith(".metadata") and not name.startswith(".")
    ]
    return sorted(rows, key=lambda row: (row["modified"], row["name"]), reverse=True)


def backup_create() -> dict:
    """Write a backup of the database and delete the oldest beyond ``DBBACKUP_CLEANUP_KEEP``; what was written."""
    before = {row["name"] for row in backup_list()}
    _dbbackup()
    kept = backup_list()
    row = next((row for row in kept if row["name"] not in before), None)
    return {
        "file": row["name"] if row else "",
        "bytes": row["bytes"] if row else 0,
        "directory": str(settings.BACKUP_DIR),
        "kept": len(kept),
        "keep": settings.DBBACKUP_CLEANUP_KEEP,
    }


def _dbbackup() -> None:
    """django-dbbackup's command, which closes the database connection when it ends. On PostgreSQL (pg_dump, in its
    own process, needs no connection of ours) it runs in a thread of its own, so that it closes that thread's
    connection and not the caller's, which may be inside a transaction (a job started from a test or the admin)."""

    def command() -> None:
        call_command("dbbackup", clean=True, interactive=False, verbosity=0)

    if connection.vendor != "postgresql":  # SQLite's backup reads the database through the caller's connection
        command()
        return
    failure: list[BaseException] = []

    def run() -> None:
        try:
            command()
        except BaseException as error:
            failure.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name="backup")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def _check_archive(path: Path) -> None:
    """A PostgreSQL backup that ``pg_restore`` can read."""
    checked = subprocess.run(["pg_restore", "--list", str(path)], capture_output=True, text=True, check=False)
    if checked.returncode != 0:
        raise RestoreError(
            _("%(path)s is not a PostgreSQL backup (pg_restore: %(error)s); nothing was changed.")
            % {"path": path, "error": checked.stderr.strip()[:300]}
        )


def _drop_every_table() -> None:
    """Empty the database's schema of tables and views (with what hangs on them: keys, triggers, sequences)."""
    with transaction.atomic(), connection.cursor() as cursor:
        found = connection.introspection.get_table_list(cursor)
        quote = connection.ops.quote_name
        views = [quote(t.name) for t in found if t.type == "v"]
        tables = [quote(t.name) for t in found if t.type != "v"]
        if views:
            cursor.execute(f"DROP VIEW IF EXISTS {', '.join(views)} CASCADE")
        if tables:
            cursor.execute(f"DROP TABLE IF EXISTS {', '.join(tables)} CASCADE")


def backup_restore(*, path: Path | None = None) -> Path:
    """Replace the whole database with the backup at ``path`` (default: the newest kept), then migrate it.

    Raises ``RestoreError`` when there is no such backup or the file is not one; nothing is changed then.
    """
    if path is None:
        kept = backup_list()
        if not kept:
            raise RestoreError(_("No backup in %(directory)s.") % {"directory": settings.BACKUP_DIR})
        path = kept[0]["path"]
    path = Path(path)
    if not path.is_file():
        raise RestoreError(_("There is no file %(path)s.") % {"path": path})
    # PostgreSQL's archive is checked, then restored into an emptied schema; SQLite's backup is a whole file.
    if connection.vendor == "postgresql":
        _check_archive(path)
        _drop_every_table()
    connection.close()
    call_command("dbrestore", input_path=str(path), interactive=False, verbosity=0)
    connection.close()
    call_command("migrate", interactive=False, verbosity=0)
    _close_runs_under_way(path)
    return path


def _close_runs_under_way(path: Path) -> None:
    """The job runs that were under way when the backup was taken (the nightly backup's own, at least) come back
    as running, but no worker runs them here: they are marked lost, saying why."""
    from ratings.models import JobRun, JobState

    JobRun.objects.filter(state__in=[JobState.QUEUED, JobState.RUNNING]).update(
        state=JobState.LOST,
        finished_at=timezone.now(),
        error=_(
            "This run was under way when the backup %(file)s was taken; the database was restored from that backup "
            "on %(date)s, so how the run ended is not recorded here."
        )
        % {"file": path.name, "date": timezone.localtime().strftime("%Y-%m-%d %H:%M")},
    )


@transaction.atomic
def backup_setup_schedule() -> None:
    """Idempotent: the nightly backup's beat entry (called after every migrate); staff's changes to it are kept."""
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    # Every night at 04:30 in the federation's time zone: after the mahjong lists of 03:00, before anyone works.
    schedule, _created = CrontabSchedule.objects.get_or_create(
        minute="30", hour="4", day_of_week="*", day_of_month="*", month_of_year="*", timezone=settings.TIME_ZONE
    )
    PeriodicTask.objects.get_or_create(
        name=SCHEDULE_NAME,
        defaults={
            "task": TASK,
            "crontab": schedule,
            "description": "Backs up the database (manage.py backup); the newest DJANGO_BACKUP_KEEP are kept.",
        },
    )
