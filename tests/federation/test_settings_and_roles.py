"""The embedded default, the production settings, and the two roles.

Settings are read at import time from the environment, so each case imports the settings package afresh with its
own environment (and puts the test run's modules back afterwards); one smoke test starts a real ``manage.py``.
"""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ImproperlyConfigured
from django_celery_beat.models import CrontabSchedule, PeriodicTask

from federation.roles import FEDERATION_STAFF, ORGANISERS
from tests.factories import federation_staff, organiser

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "federation.settings"


@pytest.fixture
def fresh_settings(monkeypatch):
    """``load(name, **env)``: ``federation.settings.<name>`` imported anew, of the site's variables only ``env`` set."""
    saved = {name: module for name, module in sys.modules.items() if name.startswith(PACKAGE + ".")}

    def load(name: str, **env: str):
        for variable in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "DJANGO_SECRET_KEY"):
            monkeypatch.delenv(variable, raising=False)
        for variable, value in env.items():
            monkeypatch.setenv(variable, value)
        for module in [m for m in sys.modules if m.startswith(PACKAGE + ".")]:
            del sys.modules[module]
        return importlib.import_module(f"{PACKAGE}.{name}")

    yield load
    for module in [m for m in sys.modules if m.startswith(PACKAGE + ".")]:
        del sys.modules[module]
    sys.modules.update(saved)
    package = sys.modules[PACKAGE]
    for name, module in saved.items():
        setattr(package, name.rsplit(".", 1)[1], module)


def test_embedded_default_is_sqlite_with_eager_tasks(fresh_settings):
    local = fresh_settings("local")
    assert local.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert local.CELERY_TASK_ALWAYS_EAGER is True
    assert local.LANGUAGE_CODE == "ru"
    assert local.DEBUG is True


def test_environment_switches_to_postgresql_and_redis(fresh_settings):
    local = fresh_settings(
        "local", DATABASE_URL="postgres://u@db.example:5432/fed", CELERY_BROKER_URL="redis://cache.example:6379/0"
    )
    assert local.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert local.DATABASES["default"]["NAME"] == "fed"
    assert local.CELERY_TASK_ALWAYS_EAGER is False
    assert local.CELERY_BROKER_URL == "redis://cache.example:6379/0"


def test_production_refuses_to_start_without_a_secret_key(fresh_settings):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY"):
        fresh_settings("production", DJANGO_ALLOWED_HOSTS="x", DATABASE_URL="postgres://u@db.example:5432/fed")


def test_manage_py_with_nothing_set_starts_on_the_embedded_default():
    """The one real start: ``manage.py`` picks the local settings by itself and runs on SQLite with eager tasks."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE", "CELERY_TASK_ALWAYS_EAGER"}
    }
    code = "from django.conf import settings as s; print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True"]


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
