"""Settings for the test run: fast password hashing, a fixed key. The database and broker come from the environment."""

from .base import *  # noqa: F403
from .base import env

SECRET_KEY = env("DJANGO_SECRET_KEY", default="test-only-not-secret")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# The suite sends many API requests from one address: the rate limit's own test sets a low rate.
API_ANON_RATE = "1000000/60"
# One process's memory: each test starts from an empty cache (tests/conftest.py clears it).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
