"""Backups (federation/backups): the nightly job recorded as a job run with its retention, its schedule, the restore
command's refusals, and on PostgreSQL the whole round trip: a site with the demo federation backed up, restored into
an empty database by ``manage.py restore`` in another process, and every row of every table found identical."""

import os
import subprocess
import sys
import time
import uuid
from io import StringIO
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.utils import translation
from django_celery_beat.models import PeriodicTask

from federation.backups import services
from federation.backups.tasks import backup_nightly
from ratings.jobs import job_summary
from ratings.models import JobRun, JobState

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def backups(monkeypatch):
    """An empty backup folder (the test settings' own) and a retention of 2 (django-dbbackup reads it once)."""
    from dbbackup import settings as dbbackup_settings

    for row in services.backup_list():
        row["path"].unlink()
    monkeypatch.setattr(dbbackup_settings, "CLEANUP_KEEP", 2)
    with override_settings(DBBACKUP_CLEANUP_KEEP=2):
        yield Path(settings.BACKUP_DIR)


@pytest.mark.django_db
def test_the_nightly_backup_is_scheduled_after_every_migrate():
    task = PeriodicTask.objects.get(name=services.SCHEDULE_NAME)
    assert task.task == "federation.backups.backup_nightly"
    assert (task.crontab.hour, task.crontab.minute, task.crontab.timezone.key) == ("4", "30", settings.TIME_ZONE)
    assert task.enabled


@pytest.mark.django_db
def test_the_nightly_backup_is_a_job_run_and_keeps_the_newest(backups):
    runs = []
    for _ in range(3):
        time.sleep(1.05)  # one backup a second: the file's name says when, to the second
        backup_nightly.apply()
        run = JobRun.objects.latest("pk")
        runs.append(run)
        assert (run.kind, run.state) == ("backup", JobState.SUCCEEDED)
    kept = services.backup_list()
    assert len(kept) == 2
    assert kept[0]["name"] == runs[-1].outcome["file"]
    assert kept[0]["path"].parent == backups
    assert (kept[0]["path"].stat().st_mode & 0o777) == 0o640
    summary = job_summary(runs[-1])
    assert runs[-1].outcome["file"] in summary
    assert "2" in summary


@pytest.mark.django_db
def test_the_backup_command_records_a_run_and_lists_what_is_kept(backups, capsys):
    call_command("backup")
    assert JobRun.objects.filter(kind="backup", source="command", state=JobState.SUCCEEDED).count() == 1
    call_command("backup", "--list")
    out = capsys.readouterr().out
    assert str(services.backup_list()[0]["path"]) in out


@pytest.mark.django_db
def test_restore_refuses_what_is_not_a_backup_and_changes_nothing(backups, tmp_path):
    from django.core.management.base import CommandError

    with translation.override("en"):
        with pytest.raises(CommandError, match="No backup"):
            call_command("restore", "--noinput")
        with pytest.raises(CommandError, match="There is no file"):
            call_command("restore", "--noinput", str(tmp_path / "none.psql.bin"))


@pytest.mark.django_db
def test_restore_refuses_a_file_that_is_not_a_postgresql_archive(postgres, tmp_path):
    from django.contrib.auth.models import Group

    Group.objects.create(name="still here")
    junk = tmp_path / "junk.psql.bin"
    junk.write_bytes(b"not a dump")
    with translation.override("en"), pytest.raises(services.RestoreError, match="not a PostgreSQL backup"):
        services.backup_restore(path=junk)
    assert Group.objects.filter(name="still here").exists()


# --- the round trip on PostgreSQL ----------------------------------------------------------------------------------


def _tables(cursor) -> list[str]:
    cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
    return [name for (name,) in cursor.fetchall()]


def _contents(cursor) -> dict[str, tuple[int, str]]:
    """Every table's row count and a digest of its rows, in a fixed order."""
    found = {}
    for table in _tables(cursor):
        cursor.execute(
            f"SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM \"{table}\" t"
        )
        found[table] = tuple(cursor.fetchone())
    return found


def _url(database: str) -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{database}"


def test_a_backup_of_the_demo_federation_restores_into_an_empty_database_identical(
    transactional_db, postgres, tmp_path
):
    from federation.models import Player
    from ratings.models import RatingEntry, RatingList, RatingSnapshot
    from tournaments.models import Result, Tournament

    call_command("demo_data", "--players", "60", "--years", "1", "--force", stdout=StringIO())
    assert Player.objects.exists()
    assert RatingEntry.objects.exists()
    assert Tournament.objects.exists()
    outcome = services.backup_create()
    backup = Path(settings.BACKUP_DIR) / outcome["file"]
    assert backup.is_file()
    assert outcome["bytes"] > 0

    empty = f"restore_{uuid.uuid4().hex[:10]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{empty}"')
    try:
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "federation.settings.test",
            "DATABASE_URL": _url(empty),
            "CELERY_BROKER_URL": "",
            "DJANGO_BACKUP_DIR": str(tmp_path),
        }
        restored = subprocess.run(
            [sys.executable, "manage.py", "restore", "--noinput", str(backup)],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert restored.returncode == 0, restored.stderr
        assert "Restored" in restored.stdout

        with connection.cursor() as cursor:
            before = _contents(cursor)
        with psycopg.connect(_url(empty)) as restored_db, restored_db.cursor() as cursor:
            after = _contents(cursor)
        assert after == before
        counted = {
            model._meta.db_table: model.objects.count()
            for model in (RatingList, RatingSnapshot, RatingEntry, Player, Tournament, Result)
        }
        assert all(count > 0 for count in counted.values()), counted
        assert {table: after[table][0] for table in counted} == counted
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{empty}" WITH (FORCE)')
