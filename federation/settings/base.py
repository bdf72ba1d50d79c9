"""Settings shared by every environment, read from the environment (django-environ).

With nothing set the site runs on a SQLite file beside the code and runs Celery tasks eagerly; with
``DATABASE_URL`` and ``CELERY_BROKER_URL`` it uses PostgreSQL (psycopg 3) and Redis.
"""

import datetime
import os
from email.utils import getaddresses
from pathlib import Path

import environ
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.utils.translation import gettext_lazy as _

from federation import bounds
from federation.settings import read_env_file

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# The .env file beside the code, for entry points that did not read it already (federation/settings/__init__.py).
read_env_file()

DEBUG = env.bool("DJANGO_DEBUG", default=False)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.sitemaps",
    "django_tables2",
    "django_filters",
    "django_celery_beat",
    "simple_history",
    "axes",
    "csp",
    "ninja",
    "corsheaders",
    "dbbackup",
    "health_check",
    "federation",
    "federation.backups",
    "tournaments",
    "ratings",
    "ratings.gorbunov",
    "ratings.mahjong",
    "ratings.preferans",
    "ratings.dirs",
    "tournaments.go",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads a body (the CSRF check reads a posted form): too large is refused unread (413).
    "federation.middleware.RequestBodyLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # Before the sessions: a public page does not vary on Cookie (federation/caching.py).
    "federation.caching.PublicPageVaryMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Bounds on every address before a view reads it: NUL, length, ?per_page= (federation/bounds.py).
    "federation.middleware.InputBoundsMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username from one address, that
# pair is refused (429, even with the right password) for AXES_COOLOFF_TIME; a right password before that resets the
# count. Staff unlock someone earlier with `manage.py axes_reset_username NAME`.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "lockout.html"
AXES_VERBOSE = False

# Content-Security-Policy (django-csp): scripts only from the site's own static files, no inline script or event
# handler anywhere (each page's data goes through json_script); nothing framed, posted or loaded from elsewhere.
# Decision: inline *styles* stay allowed (style attributes in the admin's widgets and a few templates); a style
# cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "federation.urls"
WSGI_APPLICATION = "federation.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "federation.context_processors.language_links",
                "federation.context_processors.site_identity",
                "tournaments.calendar.context_processors.page_feeds",
            ],
        },
    },
]


def tune_postgres(database: dict) -> dict:
    """The site's PostgreSQL connection options (also used by the production settings): no JIT compilation, which
    takes longer than the short queries of a web page themselves and wins nothing here."""
    if database["ENGINE"] == "django.db.backends.postgresql":
        database.setdefault("OPTIONS", {})["options"] = "-c jit=off"
    return database


# An empty DATABASE_URL (``DATABASE_URL= make run``) means the default, as an unset one does.
DATABASES = {
    "default": tune_postgres(
        env.db_url_config(os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
    )
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DJANGO_CONN_MAX_AGE", default=0))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Russian first: the addresses without a language prefix are Russian whatever the browser's Accept-Language or a
# cookie says (federation/urls.py uses i18n_patterns with prefix_default_language=False, and LocaleMiddleware then
# takes LANGUAGE_CODE for them); English lives under /en/.
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
# The federation's time zone: rating weeks and the Monday publication are counted in it.
TIME_ZONE = env("FEDERATION_TIME_ZONE", default="Europe/Moscow")
# One date format per language for every page (federation/formats/<lang>/formats.py, federation.formatting).
FORMAT_MODULE_PATH = ["federation.formats"]

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGIN_URL = "admin:login"

# E-mail from one variable, django-environ's email_url: ``smtp+tls://user:password@smtp.example.org:587`` (a user
# name or password with @, : or / written %-encoded), ``smtp+ssl://...:465``, ``consolemail://`` (to standard
# output). Without it the site sends no e-mail: errors are only logged, and the admin's password reset says it
# cannot send one (federation.password_reset).
EMAIL_URL = env("EMAIL_URL", default="")
vars().update(env.email_url_config(EMAIL_URL or "dummymail://"))
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
# Who gets every server error by e-mail (a 500, a failed job or backup): ``DJANGO_ADMINS=ann@example.org,Boris
# <boris@example.org>``.
ADMINS = [(name or address, address) for name, address in getaddresses(env.list("DJANGO_ADMINS", default=[]))]
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", default="webmaster@localhost")
# Online registration for announced tournaments (tournaments/calendar): the e-mailed confirmation link works this many
# seconds, once; the form takes at most REGISTRATION_RATE ("count/seconds") from one address and as many for one
# e-mail address (429 with Retry-After past it).
REGISTRATION_CONFIRM_SECONDS = env.int("REGISTRATION_CONFIRM_SECONDS", default=48 * 3600)
REGISTRATION_RATE = env("REGISTRATION_RATE", default="10/3600")
SERVER_EMAIL = env("DJANGO_SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
EMAIL_SUBJECT_PREFIX = env("DJANGO_EMAIL_SUBJECT_PREFIX", default="[ratings] ")

# Backups (django-dbbackup, federation/backups): pg_dump's archive (SQLite: a copy of the file) of the whole
# database, the federation's logo included (it is stored in the database; the site keeps no other uploaded file),
# written to BACKUP_DIR every night; the newest DJANGO_BACKUP_KEEP are kept.
BACKUP_DIR = Path(env("DJANGO_BACKUP_DIR", default=str(BASE_DIR / "backups")))
STORAGES["dbbackup"] = {
    "BACKEND": "django.core.files.storage.FileSystemStorage",
    "OPTIONS": {"location": str(BACKUP_DIR), "file_permissions_mode": 0o640, "directory_permissions_mode": 0o750},
}
DBBACKUP_CLEANUP_KEEP = env.int("DJANGO_BACKUP_KEEP", default=30)
# A failed backup is mailed like every error (the logging below), not a second time by django-dbbackup.
DBBACKUP_SEND_EMAIL = False
# Restored by a role that need not be the one that made the backup (a new machine): ownership and grants are left
# to the restoring role. A backup that cannot lock a table within 10 minutes (a long migration) fails, and says so,
# rather than waiting all night.
DBBACKUP_CONNECTORS = {
    "default": {"PG_OPTIONS": ["--no-owner", "--no-privileges"], "DUMP_SUFFIX": "--lock-wait-timeout=600s"}
}

# Celery: Redis when CELERY_BROKER_URL is set; otherwise every task runs eagerly in the caller's process.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# Staff follow a job through its JobRun row (ratings.jobs), not through the result backend; results are kept for
# callers that wait on a task (tests, a shell).
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or "cache+memory://")
CELERY_TASK_STORE_EAGER_RESULT = True
# A queue that is down is said at once: one connection attempt of at most a second, no retries (Celery's defaults
# retried the result store's connection 20 times, a second apart, before "publish now" could say anything). The
# next job after Redis is back connects again.
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1, "max_retries": 0}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 0}}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# A task is acknowledged when it ends, not when it starts: a worker killed mid-job leaves the message to the broker,
# which hands it to the next worker (the jobs are idempotent under their lists' locks; ratings.jobs tells staff
# meanwhile that the run was lost). One message at a time per worker process, so none waits behind a long job.
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
DJANGO_CELERY_BEAT_TZ_AWARE = True

# Bootstrap 5, slimmed (templates/django_tables2/slim.html).
DJANGO_TABLES2_TEMPLATE = "django_tables2/slim.html"
DJANGO_TABLES2_TABLE_ATTRS = {"class": "table table-sm table-striped table-hover align-middle"}

# Sections each discipline adds to the player's and the tournament's page (federation.sections).
PLAYER_PAGE_SECTIONS: list[str] = [
    "ratings.gorbunov.sections.player_section",
    "ratings.mahjong.sections.player_section",
    "ratings.dirs.sections.player_section",
    "tournaments.go.sections.player_section",
    "ratings.preferans.sections.player_section",
]
# The site's own address (scheme and host, no path): the canonical links, hreflang and Open Graph addresses of every
# page are written from it, never from the request's Host header (a cached page is the same for every visitor).
SITE_URL = env("DJANGO_SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# Public pages and API answers are kept in Django's cache this long (federation/caching.py); a change to what they
# show makes them unreachable at once (federation/versions.py), so this only bounds the cache's size.
PUBLIC_PAGE_CACHE_SECONDS = env.int("DJANGO_PUBLIC_PAGE_CACHE_SECONDS", default=3600)
# Public pages are revalidated on every visit (exact after a publication); set seconds to let a CDN serve them
# that long without asking (federation.caching).
PUBLIC_PAGE_SHARED_MAX_AGE = env.int("PUBLIC_PAGE_SHARED_MAX_AGE", default=0)
TOURNAMENT_PAGE_SECTIONS: list[str] = [
    "ratings.gorbunov.sections.tournament_section",
    "ratings.mahjong.sections.tournament_section",
    "tournaments.go.sections.tournament_section",
]

# Django's cache: the public pages and API answers (federation/caching.py), their versions (federation/versions.py),
# the API's rate limit and the federation's identity. In production every web worker and the Celery workers must
# share it: DJANGO_CACHE_URL=redis://host:6379/1 (django-redis, which ignores a Redis that is down: the pages are then
# served uncached, never failed). Without it, files in .cache/ beside the code, so that a management command's writes
# reach the development server's pages too.
CACHES = {"default": env.cache_url("DJANGO_CACHE_URL", default=f"filecache://{BASE_DIR / '.cache'}")}
if CACHES["default"]["BACKEND"] in (
    "django_redis.cache.RedisCache",
    "django.core.cache.backends.redis.RedisCache",
):
    CACHES["default"]["BACKEND"] = "django_redis.cache.RedisCache"
    CACHES["default"].setdefault("OPTIONS", {}).update(
        {"SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5, "IGNORE_EXCEPTIONS": True}
    )
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

# The public API (/api/v1/): anonymous clients may send API_ANON_RATE requests ("count/seconds") from one address,
# then get 429 with Retry-After; answers may be cached by browsers and proxies for API_MAX_AGE seconds (ETag and
# Last-Modified let them revalidate). Any site may read it from a browser (CORS, GET only; the admin and the game
# servers' API are not opened).
API_ANON_RATE = env("DJANGO_API_ANON_RATE", default="120/60")
# Whose address a request is, for the rate limit: the last of X-Forwarded-For's addresses that this many proxies of
# ours added (0: the connection's own address; a client's X-Forwarded-For is never believed beyond that).
NINJA_NUM_PROXIES = env.int("DJANGO_NUM_PROXIES", default=0)
API_MAX_AGE = env.int("DJANGO_API_MAX_AGE", default=60)
# Built answers of lists and histories are kept in the cache under the ETag of what they show for this long: every
# request reads the version (one query: the publications, the players' registry, the player's newest changes), so a
# new publication, deal or renamed player is seen at the next request; a warm request reads the stored answer.
API_CACHE_SECONDS = env.int("DJANGO_API_CACHE_SECONDS", default=300)
CORS_URLS_REGEX = r"^/api/v1/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
CORS_ALLOW_CREDENTIALS = False
CORS_EXPOSE_HEADERS = ["ETag", "Last-Modified", "Retry-After"]
CORS_PREFLIGHT_MAX_AGE = 86400

# Import files larger than this are refused before they are read (a result sheet is a few kilobytes).
RESULT_IMPORT_MAX_BYTES = 2 * 1024 * 1024

# Request bodies (issue 27). The largest legitimate upload is a federation's history document (20 MB,
# federation.bounds.HISTORY_UPLOAD_MAX_BYTES, at the admin's "import history" page); every other upload (a
# tournament's results, preferans deals, a Go tournament's players or .h9, the logo) is at most 2 MB
# (bounds.UPLOAD_MAX_BYTES), and every other body is smaller. RequestBodyLimitMiddleware (federation/middleware.py)
# refuses a body announced larger than its address takes before anything reads it: REQUEST_BODY_MAX_BYTES for every
# address, REQUEST_BODY_LARGER for the one that takes more (URL names), each with room for the form around the file.
# DATA_UPLOAD_MAX_MEMORY_SIZE (Django's bound on a body that is not a file, read into memory) is the largest such body:
# a game server's batch of deals (bounds.API_MAX_BODY_BYTES, 2 MB; the API refuses more itself, 413 in JSON).
REQUEST_BODY_MAX_BYTES = bounds.UPLOAD_MAX_BYTES + bounds.MULTIPART_OVERHEAD_BYTES
REQUEST_BODY_LARGER = {
    "admin:ratings_ratinglist_import_history": bounds.HISTORY_UPLOAD_MAX_BYTES + bounds.MULTIPART_OVERHEAD_BYTES,
}
DATA_UPLOAD_MAX_MEMORY_SIZE = bounds.API_MAX_BODY_BYTES

# A refused CSRF check under /api/ is answered in JSON like every other answer there (issue 27); the site's pages get
# Django's own page.
CSRF_FAILURE_VIEW = "federation.api.common.csrf_failure"

# Every process (web, worker, beat, a command) logs to standard output, one record a line, with its priority in the
# form journald reads when systemd runs it (federation.logs); errors also go by e-mail to ADMINS (with DEBUG off).
# Django's own loggers pass their records up here, so an error is mailed once. A request for a host name not in
# DJANGO_ALLOWED_HOSTS (every scanner's probe) answers 400 and is logged as a warning line, not mailed.
LOG_LEVEL = env("DJANGO_LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        "without_traceback": {"()": "federation.logs.WithoutTraceback"},
        "health_probes_as_warnings": {"()": "federation.logs.HealthProbesAsWarnings"},
    },
    "formatters": {"lines": {"()": "federation.logs.JournalFormatter"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "lines"},
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["console", "mail_admins"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "django.request": {"handlers": [], "filters": ["health_probes_as_warnings"], "propagate": True},
        "django.security.DisallowedHost": {
            "handlers": ["console"],
            "filters": ["without_traceback"],
            "propagate": False,
        },
    },
}
