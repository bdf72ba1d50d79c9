"""The Celery app. Tasks live in each app's ``tasks.py`` and each is a one-line call into a service.

With no ``CELERY_BROKER_URL`` set, settings make every task run eagerly in the caller's process (the embedded
default); with it set (Redis), a worker runs them and beat triggers the schedules stored in django-celery-beat.
"""

from celery import Celery
from celery.signals import setup_logging

from federation.settings import use_default_settings

# The same settings as the web's, whoever starts the worker or beat (federation/settings/__init__.py).
use_default_settings()

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Tasks of the packages inside apps (each a one-line call into its service).
app.autodiscover_tasks(["ratings.gorbunov", "ratings.mahjong"])


@setup_logging.connect
def use_the_sites_logging(**kwargs) -> None:
    """The worker and beat log as the web does (``settings.LOGGING``: standard output in journald's form, errors
    mailed to ADMINS): with a receiver here, Celery leaves the logging as Django configured it."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
