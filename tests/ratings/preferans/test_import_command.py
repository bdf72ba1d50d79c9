"""``manage.py preferans_import``: a long history from a CSV file, checked whole, then stored in batches."""

import io
import random

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from federation.models import Player
from ratings.engines.preferans import DealWhists, rate_deals
from ratings.preferans.models import Deal, DealResult, Game, PreferansRating
from tests.factories import PlayerFactory

HEADER = "game;date;deal;player_id;whists\n"


def _history(players, rng, games=6, deals_per_game=5, first=0):
    """Games played two at a time (their deals interleave), as CSV rows and as the engine's deals."""
    rows, engine_deals = [], []
    for pair in range(first, first + games, 2):
        tables = {f"club-{g}": rng.sample(players, rng.choice((3, 4))) for g in (pair, pair + 1)}
        for n in range(1, deals_per_game + 1):
            for key, table in tables.items():
                whists = [rng.randint(-20, 20) for _ in table[1:]]
                whists.insert(0, -sum(whists))
                for pid, value in zip(table, whists, strict=True):
                    rows.append(f"{key};2026-03-0{1 + pair // 2};{n};{pid};{value}\n")
                engine_deals.append(
                    DealWhists(game=key, whists={str(p): v for p, v in zip(table, whists, strict=True)})
                )
    return rows, engine_deals


def _run(tmp_path, text, *args):
    path = tmp_path / "deals.csv"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with translation.override("en"):
        call_command("preferans_import", str(path), *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_import_in_batches_cut_between_games_equals_the_engine(tmp_path):
    players = [PlayerFactory().pk for _ in range(9)]
    rows, engine_deals = _history(players, random.Random(4))
    out, _err = _run(tmp_path, HEADER + "".join(rows), "--batch", "7")
    # Two games at a time, 5 deals each: a batch can only end when both are over, after 10 deals.
    assert "30 deals of 6 games" in out
    assert "3 batches" in out
    assert "batch 1/3: 10 deals, 2 games" in out
    assert "batch 3/3: 10 deals, 2 games" in out
    assert "imported 30 deals of 6 games" in out
    assert Game.objects.count() == 6
    assert Deal.objects.count() == 30
    assert list(Deal.objects.filter(game__external_id="club-3").order_by("number").values_list("external_id")) == [
        (str(n),) for n in range(1, 6)
    ]
    ledger = rate_deals(engine_deals)
    for pid, state in ledger.players.items():
        row = PreferansRating.objects.get(player_id=int(pid))
        assert row.rating == pytest.approx(state.rating, abs=1e-9)
        assert row.max_rating == pytest.approx(state.max_rating, abs=1e-9)
    assert DealResult.objects.count() == sum(len(d.whists) for d in engine_deals)


@pytest.mark.django_db
def test_a_bad_file_names_every_row_and_field_and_saves_nothing(tmp_path):
    a, b, c, d = (PlayerFactory().pk for _ in range(4))
    stored = PlayerFactory().pk
    _run(tmp_path, HEADER + f"old;2026-01-01;1;{a};1\nold;2026-01-01;1;{stored};-1\n")
    text = HEADER + "".join(
        [
            f"g1;2026-03-01;1;{a};5\n",
            f"g1;2026-03-01;1;{b};-3\n",
            f"g1;2026-03-01;1;{c};-1\n",  # the deal of rows 2-4: the whists sum to 1
            f"g1;2026-03-01;2;{a};1\n",
            f"g1;2026-03-01;2;{d};-1\n",  # the deal of rows 5-6: d is not at g1's table
            "g2;2026-03-01;1;999999;2\n",  # row 7: no such player
            f"g2;2026-03-01;1;{a};-2\n",
            f"old;2026-03-01;2;{a};0\n",  # row 9: a stored game
            f"old;2026-03-01;2;{stored};0\n",
        ]
    )
    with pytest.raises(CommandError, match=r"^4 errors in .*; nothing was imported$"):
        _run(tmp_path, text)
    path = tmp_path / "deals.csv"
    err = io.StringIO()
    with translation.override("en"), pytest.raises(CommandError):
        call_command("preferans_import", str(path), stdout=io.StringIO(), stderr=err)
    lines = err.getvalue().splitlines()
    assert lines == [
        "row 2, whists: the whists of deal “1” sum to 1, not to zero",
        "row 5, player_id: the players are not 2 or more of the table of game “g1” (its first deal, row 2)",
        "row 7, player_id: no player has the id 999999",
        "row 9, game: game “old” is already stored: add its deals in the admin",
    ]
    assert Game.objects.count() == 1
    assert Deal.objects.count() == 1


@pytest.mark.django_db
def test_unreadable_input_and_dry_run(tmp_path):
    a, b = (PlayerFactory().pk for _ in range(2))
    with translation.override("en"), pytest.raises(CommandError, match="cannot read"):
        call_command("preferans_import", str(tmp_path / "missing.csv"))
    with pytest.raises(CommandError, match="Missing columns"):
        _run(tmp_path, "game;deal\nx;1\n")
    with pytest.raises(CommandError, match=r"^2 errors in "):
        _run(tmp_path, HEADER + f"g;;1;{a};1.5\ng;;1;{b};-1.5\n")
    long_game = "g" * 101  # longer than the database keeps: refused by row, not by the database mid-import
    with pytest.raises(CommandError, match=r"^2 errors in "):
        _run(tmp_path, HEADER + f"{long_game};;1;{a};1\n{long_game};;1;{b};-1\n")
    with pytest.raises(CommandError, match="--batch must be"):
        _run(tmp_path, HEADER + f"g;;1;{a};1\ng;;1;{b};-1\n", "--batch", "0")
    out, _err = _run(tmp_path, HEADER + f"g;;1;{a};1\ng;;1;{b};-1\n", "--dry-run")
    assert "1 deals of 1 games" in out
    assert "dry run: nothing was saved" in out
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_messages_are_in_russian_by_default(tmp_path):
    a, b = (PlayerFactory().pk for _ in range(2))
    path = tmp_path / "deals.csv"
    path.write_text(HEADER + f"g;;1;{a};2\ng;;1;{b};-1\n", encoding="utf-8")
    err = io.StringIO()
    with translation.override("ru"), pytest.raises(CommandError, match="ничего не импортировано"):
        call_command("preferans_import", str(path), stdout=io.StringIO(), stderr=err)
    assert err.getvalue().startswith("строка 2, whists: ")


@pytest.mark.django_db
def test_a_batch_failing_after_the_check_keeps_the_batches_before_it(tmp_path, monkeypatch):
    """A player deleted by staff while the import runs: the batch naming them is refused, the ones before stay."""
    from ratings.preferans.management.commands import preferans_import

    early, late = [PlayerFactory().pk for _ in range(5)], [PlayerFactory().pk for _ in range(5)]
    rows, _deals = _history(early, random.Random(4), games=2)
    more, _deals = _history(late, random.Random(5), games=2, first=2)
    rows += more
    real_import = preferans_import.deals_import_bulk
    calls = []

    def import_then_delete(*, games, deals):
        calls.append(len(deals))
        if len(calls) == 2:
            Player.objects.filter(pk=games[0].player_ids[0]).delete()
        return real_import(games=games, deals=deals)

    monkeypatch.setattr(preferans_import, "deals_import_bulk", import_then_delete)
    with pytest.raises(CommandError) as error:
        _run(tmp_path, HEADER + "".join(rows), "--batch", "7")
    assert str(error.value).startswith("batch 2 (from row ")
    assert "a player id of these games does not exist" in str(error.value)
    assert str(error.value).endswith("batches 1 to 1 are stored (10 deals, 2 games, up to game “club-1”)")
    assert Game.objects.count() == 2
    assert Deal.objects.count() == 10


def test_the_command_is_found_and_explains_itself(capsys):
    """``manage.py preferans_import --help``, as the README names it, from the app's home (``ratings/preferans``)."""
    from django.core.management import ManagementUtility

    with pytest.raises(SystemExit) as done:
        ManagementUtility(["manage.py", "preferans_import", "--help"]).execute()
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--batch" in out
    assert "--dry-run" in out


@pytest.mark.django_db
def test_a_player_who_left_is_missing_from_the_later_deals_of_a_bulk_import(tmp_path):
    """RATE_CLI.md: a game's table is fixed by its first deal; a later deal may lack a player who left. The bulk
    import stores it and rates it as ``rate`` does; a deal of one player, or with a stranger, is refused."""
    a, b, c = (PlayerFactory().pk for _ in range(3))
    rows = [(1, a, -5), (1, b, 3), (1, c, 2), (2, a, 6), (2, b, -6), (3, b, 1), (3, a, -1)]
    _run(tmp_path, HEADER + "".join(f"g1;2026-03-01;{n};{p};{w}\n" for n, p, w in rows))
    engine = rate_deals(
        [
            DealWhists("g1", {str(a): -5, str(b): 3, str(c): 2}),
            DealWhists("g1", {str(a): 6, str(b): -6}),
            DealWhists("g1", {str(b): 1, str(a): -1}),
        ]
    )
    for pid in (a, b, c):
        assert PreferansRating.objects.get(player_id=pid).rating == engine.players[str(pid)].rating
    assert DealResult.objects.filter(player_id=c).count() == 1
    assert DealResult.objects.count() == 7
    d = PlayerFactory().pk
    text = HEADER + f"g2;2026-03-01;1;{a};1\ng2;2026-03-01;1;{b};-1\ng2;2026-03-01;2;{a};0\n"
    text += f"g3;2026-03-01;1;{a};1\ng3;2026-03-01;1;{b};-1\ng3;2026-03-01;2;{a};1\ng3;2026-03-01;2;{d};-1\n"
    with pytest.raises(CommandError):
        _run(tmp_path, text)
    err = io.StringIO()
    with translation.override("en"), pytest.raises(CommandError):
        call_command("preferans_import", str(tmp_path / "deals.csv"), stdout=io.StringIO(), stderr=err)
    assert err.getvalue().splitlines() == [
        "row 4, player_id: the players are not 2 or more of the table of game “g2” (its first deal, row 2)",
        "row 7, player_id: the players are not 2 or more of the table of game “g3” (its first deal, row 5)",
    ]
    assert DealResult.objects.count() == 7
