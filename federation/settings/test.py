"""Settings for the test run: fast password hashing, a fixed key. The database and broker come from the environment."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from .base import *  # noqa: F403
from .base import DATABASES, STORAGES, env

SECRET_KEY = env("DJANGO_SECRET_KEY", default="test-only-not-secret")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# The suite sends many API requests from one address: the rate limit's own test sets a low rate.
API_ANON_RATE = "1000000/60"
# One process's memory: each test starts from an empty cache (tests/conftest.py clears it).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The tests' backups go to a directory of the run's own, removed at its end (django-dbbackup reads its storage once).
if not os.environ.get("DJANGO_BACKUP_DIR"):
    BACKUP_DIR = Path(tempfile.mkdtemp(prefix="federation-test-backups-"))
    atexit.register(shutil.rmtree, BACKUP_DIR, ignore_errors=True)
    STORAGES["dbbackup"] = {
        **STORAGES["dbbackup"],
        "OPTIONS": {**STORAGES["dbbackup"]["OPTIONS"], "location": str(BACKUP_DIR)},
    }
# SQLite's backup API waits forever on the tests' shared in-memory database while a test's transaction writes to it;
# the SQL dump reads it through that same connection instead.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DBBACKUP_CONNECTORS = {"default": {"CONNECTOR": "dbbackup.db.sqlite.SqliteConnector"}}
