"""``manage.py demo_data`` refuses what would be unsafe or too small to make a federation, before writing anything."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from federation.models import Player


@pytest.mark.django_db
def test_demo_data_refuses_without_debug_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="known passwords"):
        call_command("demo_data", "--players", "60", "--years", "1", stdout=StringIO())
    assert not Player.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("args", [["--players", "19"], ["--years", "0"]])
def test_demo_data_refuses_a_federation_too_small(args):
    with pytest.raises(CommandError, match="at least 20 players and 1 year"):
        call_command("demo_data", "--force", *args, stdout=StringIO())
    assert not Player.objects.exists()
