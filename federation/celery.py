"""The Celery app. Tasks live in each app's ``tasks.py`` and each is a one-line call into a service.

With no ``CELERY_BROKER_URL`` set, settings make every task run eagerly in the caller's process (the embedded
default); with it set (Redis), a worker runs them and beat triggers the schedules stored in django-celery-beat.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings.local")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Tasks of the packages inside apps (each a one-line call into its service).
app.autodiscover_tasks(["ratings.gorbunov", "ratings.mahjong"])
