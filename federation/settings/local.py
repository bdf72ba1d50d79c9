"""The embedded default for a newcomer: DEBUG on, a fixed development key, SQLite unless DATABASE_URL says otherwise."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="local-development-only-not-secret")
# A developer sees every e-mail (a password reset's link, an error report) in the terminal unless EMAIL_URL says.
EMAIL_URL = env("EMAIL_URL", default="consolemail://")
vars().update(env.email_url_config(EMAIL_URL))
