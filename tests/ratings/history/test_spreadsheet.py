"""The spreadsheet path: the README's example tables go in through ``import_spreadsheet``, and the site then shows
exactly what ``rate`` prints for the same history; a table with mistakes names each by file, row and column."""

from pathlib import Path

import pytest

from federation.models import Club, Player
from ratings.spreadsheet import spreadsheet_document
from tournaments.models import Tournament

from .conftest import rate_output, run_command

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"


def _files(tmp_path, **tables):
    paths = {}
    for name in ("players", "tournaments", "results"):
        text = tables.get(name, (EXAMPLES / f"{name}.csv").read_text(encoding="utf-8"))
        path = tmp_path / f"{name}.csv"
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


def _args(paths):
    return [
        "--players",
        str(paths["players"]),
        "--tournaments",
        str(paths["tournaments"]),
        "--results",
        str(paths["results"]),
    ]


def test_the_example_tables_go_in_and_the_list_is_what_rate_prints(tmp_path, show_list):
    paths = _files(tmp_path)
    status, out, err = run_command("import_spreadsheet", *_args(paths), "--ratings-date", "2019-01-01")
    assert status == 0, err
    doc, _where = spreadsheet_document(
        players=(paths["players"].read_bytes(), "players.csv"),
        tournaments=(paths["tournaments"].read_bytes(), "tournaments.csv"),
        results=(paths["results"].read_bytes(), "results.csv"),
    )
    assert show_list("gorbunov") == rate_output(doc)
    ann = Player.objects.get(external_id="ann")
    assert (ann.full_name, ann.city, ann.club.name) == ("Петрова Анна", "Тверь", "Берсерк-Тверь")
    assert Player.objects.get(external_id="dan").full_name == "Игрок dan"
    sealed = Tournament.objects.get(external_id="2019-002")
    assert (sealed.card_format, sealed.sealed_cap, sealed.end_date.isoformat()) == ("sealed", False, "2019-03-16")
    assert Tournament.objects.get(external_id="2019-001").end_date.isoformat() == "2019-03-07"
    # The same tables again: nothing new.
    status, out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 0, err
    assert '"tournaments": 0' in out.split('"unchanged"')[0]


def test_mistakes_are_named_by_file_row_and_column_and_nothing_is_saved(tmp_path):
    paths = _files(
        tmp_path,
        players="id;name;rating\nann;Петрова Анна;50\n",
        tournaments="id;date;k;format\n2019-001;31.02.2019;4;constructed\n2019-002;2019-03-16;четыре;booster\n",
        results="tournament;player;place\n2019-001;ann;1\n2019-001;bob;1\n2019-003;cid;1\n",
    )
    status, _out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 1
    assert err.splitlines() == ["results.csv, row 4, tournament: '2019-003' is not in the tournaments"]
    paths = _files(
        tmp_path,
        players="id;name;rating\nann;Петрова Анна;50\n",
        tournaments="id;date;k;format\n2019-001;31.02.2019;4;constructed\n2019-002;2019-03-16;четыре;booster\n",
        results="tournament;player;place\n2019-001;ann;1\n2019-001;bob;1\n",
    )
    status, _out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 1
    assert err.splitlines() == [
        "players.csv, row 2, rating: 50 is below the floor of 100",
        "tournaments.csv, row 2, date: '31.02.2019' is not a date (YYYY-MM-DD)",
        "tournaments.csv, row 3, k: 'четыре' is not a positive whole number",
        "tournaments.csv, row 3, format: 'booster': the list takes only constructed, limited, sealed, draft, combined, "
        "arena",
    ]
    assert not Player.objects.exists()
    assert not Club.objects.exists()
