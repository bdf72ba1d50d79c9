"""``manage.py gorbunov_publish``: staff's way to publish or rebuild when Celery is down (README)."""

import pytest
from django.core.management import CommandError, ManagementUtility, call_command

from ratings.models import RatingChange, RatingSnapshot
from tests.ratings.gorbunov.conftest import week


def test_gorbunov_publish_help_runs(capsys):
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(["manage.py", "gorbunov_publish", "--help"]).execute()
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "--rebuild" in out
    assert "--week" in out


@pytest.mark.django_db
def test_gorbunov_publish_publishes_and_rebuilds(gorbunov_list, season, capsys):
    call_command("gorbunov_publish", "--list", "gorbunov", "--week", week(3).isoformat())
    assert "gorbunov: published — " in capsys.readouterr().out
    assert RatingSnapshot.objects.filter(rating_list=gorbunov_list).latest("as_of").as_of == week(3)
    changes = RatingChange.objects.filter(rating_list=gorbunov_list).count()
    call_command("gorbunov_publish", "--list", "gorbunov", "--rebuild")
    assert "gorbunov: rebuilt — " in capsys.readouterr().out
    assert RatingChange.objects.filter(rating_list=gorbunov_list).count() == changes
    with pytest.raises(CommandError, match="is not a date"):
        call_command("gorbunov_publish", "--week", "monday")
    with pytest.raises(CommandError, match="no Gorbunov list"):
        call_command("gorbunov_publish", "--list", "nope")
