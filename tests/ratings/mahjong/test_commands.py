"""``manage.py mahjong_daily`` and ``mahjong_rebuild``: the nightly job and a rebuild from the command line."""

import datetime

import pytest
from django.core.management import CommandError, ManagementUtility, call_command
from django.utils import translation

from ratings.mahjong import services
from ratings.models import RatingList
from tests.factories import PlayerFactory
from tests.ratings.mahjong.factories import mahjong_tournament


@pytest.mark.parametrize(("command", "option"), [("mahjong_daily", "--date"), ("mahjong_rebuild", "--from")])
def test_help_runs(capsys, command, option):
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(["manage.py", command, "--help"]).execute()
    assert exit_.value.code == 0
    assert option in capsys.readouterr().out


@pytest.fixture
def league(db):
    services.mahjong_setup_defaults()
    players = [PlayerFactory() for _ in range(16)]
    mahjong_tournament(players=players, end=datetime.date(2025, 1, 1))
    mahjong_tournament(players=players, end=datetime.date(2025, 2, 1))
    return RatingList.objects.get(slug="mahjong-rr")


def test_mahjong_daily_computes_once(league, capsys):
    call_command("mahjong_daily", "--date", "2025-02-01")
    assert "mahjong-rr: computed" in capsys.readouterr().out
    call_command("mahjong_daily", "--date", "2025-02-01")
    assert "mahjong-rr: unchanged" in capsys.readouterr().out
    assert list(league.snapshots.values_list("as_of", flat=True)) == [datetime.date(2025, 2, 1)]
    with pytest.raises(CommandError, match="is not a date"):
        call_command("mahjong_daily", "--date", "01.02.2025")


def test_mahjong_rebuild_writes_the_dates_that_changed(league, capsys):
    call_command("mahjong_rebuild", "--from", "2025-01-01", "--to", "2025-03-01", "--list", "mahjong-rr")
    assert "mahjong-rr: 2 snapshots written" in capsys.readouterr().out
    assert list(league.snapshots.order_by("as_of").values_list("as_of", flat=True)) == [
        datetime.date(2025, 1, 1),
        datetime.date(2025, 2, 1),
    ]
    with translation.override("en"), pytest.raises(CommandError, match="The last date is before the first"):
        call_command("mahjong_rebuild", "--from", "2025-03-01", "--to", "2025-01-01")
    with pytest.raises(CommandError, match="no mahjong list 'nope'"):
        call_command("mahjong_rebuild", "--from", "2025-01-01", "--to", "2025-01-02", "--list", "nope")
    with pytest.raises(CommandError, match="--to '2025-13-01' is not a date"):
        call_command("mahjong_rebuild", "--from", "2025-01-01", "--to", "2025-13-01")
