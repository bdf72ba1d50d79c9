"""The embedded default, the production settings, and the two roles."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django_celery_beat.models import CrontabSchedule, PeriodicTask

from federation.roles import FEDERATION_STAFF, ORGANISERS
from tests.factories import federation_staff, organiser

ROOT = Path(__file__).resolve().parents[2]


def _settings_value(expression: str, **env) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    code = f"import django, os; django.setup(); from django.conf import settings; print({expression})"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "federation.settings.local", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_embedded_default_is_sqlite_with_eager_tasks():
    assert _settings_value("settings.DATABASES['default']['ENGINE']") == "django.db.backends.sqlite3"
    assert _settings_value("settings.CELERY_TASK_ALWAYS_EAGER") == "True"
    assert _settings_value("settings.LANGUAGE_CODE") == "ru"


def test_environment_switches_to_postgresql_and_redis():
    env = {"DATABASE_URL": "postgres://u@db.example:5432/fed", "CELERY_BROKER_URL": "redis://cache.example:6379/0"}
    assert _settings_value("settings.DATABASES['default']['ENGINE']", **env) == "django.db.backends.postgresql"
    assert _settings_value("settings.CELERY_TASK_ALWAYS_EAGER", **env) == "False"
    assert _settings_value("settings.CELERY_BROKER_URL", **env) == "redis://cache.example:6379/0"


def test_production_refuses_to_start_without_a_secret_key():
    clean = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "federation.settings.production", "DJANGO_ALLOWED_HOSTS": "x"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


@pytest.mark.django_db
def test_roles_exist_with_their_permissions():
    organisers = Group.objects.get(name=ORGANISERS)
    staff = Group.objects.get(name=FEDERATION_STAFF)
    organiser_perms = set(organisers.permissions.values_list("codename", flat=True))
    staff_perms = set(staff.permissions.values_list("codename", flat=True))
    assert {"add_tournament", "change_tournament", "add_result"} <= organiser_perms
    assert not {"approve_tournament", "accredit_tournament", "set_high_coefficient"} & organiser_perms
    assert {"approve_tournament", "accredit_tournament", "set_high_coefficient", "change_periodictask"} <= staff_perms


@pytest.mark.django_db
def test_staff_see_and_pause_schedules_in_the_admin(client):
    schedule = CrontabSchedule.objects.create(minute="0", hour="6", day_of_week="1", timezone="Europe/Moscow")
    task = PeriodicTask.objects.create(name="Недельная публикация", task="x.y", crontab=schedule)
    client.force_login(federation_staff())
    response = client.get("/admin/django_celery_beat/periodictask/")
    assert response.status_code == 200
    assert "Недельная публикация" in response.content.decode()
    client.post("/admin/django_celery_beat/periodictask/", {"action": "disable_tasks", "_selected_action": [task.pk]})
    task.refresh_from_db()
    assert task.enabled is False


@pytest.mark.django_db
def test_organisers_do_not_see_schedules(client):
    client.force_login(organiser())
    assert client.get("/admin/django_celery_beat/periodictask/").status_code == 403
