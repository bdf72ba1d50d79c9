"""Production: every secret and host from the environment, HTTPS only behind the proxy, secure cookies.

The site runs behind the one HTTPS proxy of deploy/ (Caddy), with gunicorn listening on 127.0.0.1 only: the proxy
answers plain HTTP with a redirect to HTTPS, sets ``X-Forwarded-Proto`` (read below) and puts the client's address
last in ``X-Forwarded-For`` (the public API's rate limit counts by it, ``DJANGO_NUM_PROXIES``). docs/deployment.md
says why each is so.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import STORAGES, env, tune_postgres

#: What the production settings cannot start without, with what to write there.
REQUIRED = {
    "DJANGO_SECRET_KEY": "a long random secret, e.g. the output of: python3 -c 'import secrets; "
    "print(secrets.token_urlsafe(50))'",
    "DJANGO_ALLOWED_HOSTS": "the site's host name(s), comma-separated, e.g. ratings.example.org",
    "DATABASE_URL": "PostgreSQL, e.g. postgres://federation:PASSWORD@127.0.0.1:5432/federation",
    "CELERY_BROKER_URL": "Redis for the worker and beat, e.g. redis://127.0.0.1:6379/0",
}
_missing = [name for name in REQUIRED if not os.environ.get(name, "").strip()]
if _missing:
    raise ImproperlyConfigured(
        "The production settings (federation.settings.production) need these environment variables, set in the "
        "environment or in the .env file beside manage.py (deploy/install.sh writes it):\n"
        + "\n".join(f"  {name}: {REQUIRED[name]}" for name in _missing)
    )

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
DATABASES = {"default": tune_postgres(env.db("DATABASE_URL"))}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=60)
DATABASES["default"]["ATOMIC_REQUESTS"] = False

# The site's own address as the sender, unless DJANGO_DEFAULT_FROM_EMAIL names one (the mail provider may insist
# on an address of a domain it has verified).
_host = next((h.lstrip(".") for h in ALLOWED_HOSTS if h.strip(".*")), "localhost")
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", default=f"ratings@{_host}")
SERVER_EMAIL = env("DJANGO_SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
# Canonical links, hreflang, og:url, the sitemap and the links in e-mails are written from this address, never from
# the request's host: by default the HTTPS address of the first allowed host.
SITE_URL = env("DJANGO_SITE_URL", default=f"https://{_host}").rstrip("/")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# An uptime monitor or the install script asking gunicorn itself on 127.0.0.1 gets the health answer, not a
# redirect to an HTTPS address that gunicorn does not serve.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Behind the one HTTPS proxy the deployment expects: the client is the address it puts last in X-Forwarded-For.
# Believed only because gunicorn listens on 127.0.0.1, where nothing but the proxy reaches it (deploy/).
NINJA_NUM_PROXIES = env.int("DJANGO_NUM_PROXIES", default=1)

# Static files with their content's hash in the name, so the proxy (deploy/Caddyfile) can let browsers keep them for
# a year: a new version of a file is a new address.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}
