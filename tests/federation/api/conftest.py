from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import transaction


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """A small demo federation (every system rated through its services), built once for the module inside a
    transaction rolled back at the end."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("demo_data", "--players", "60", "--years", "1", "--force", stdout=StringIO())
        yield
        transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def fresh_rate_counts():
    cache.clear()
    yield
    cache.clear()
