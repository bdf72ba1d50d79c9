"""The spreadsheet path for the mahjong lists: the README's example tables go in through ``import_spreadsheet
--system mahjong-rr``, and the site then shows exactly what ``rate`` prints for the same history; mistakes are named
by file, row and column, and nothing is saved."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from federation.models import Player
from ratings.history import HistoryError, history_check
from ratings.spreadsheet import document_error, mahjong_spreadsheet_document
from tournaments.models import Result, Stage, Tournament

from .conftest import rate_output, run_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("postgres")]

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
SYSTEMS = ("mahjong-rr", "mahjong-crr", "mahjong-online")


def _files(tmp_path, **tables):
    paths = {}
    for name in ("players", "tournaments", "results"):
        text = tables.get(name, (EXAMPLES / f"mahjong_{name}.csv").read_text(encoding="utf-8"))
        path = tmp_path / f"{name}.csv"
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


def _args(paths, system="mahjong-rr"):
    args = ["--system", system]
    for name in ("players", "tournaments", "results"):
        args += [f"--{name}", str(paths[name])]
    return args


def _document(paths, system):
    doc, _where = mahjong_spreadsheet_document(
        system=system,
        players=(paths["players"].read_bytes(), "players.csv"),
        tournaments=(paths["tournaments"].read_bytes(), "tournaments.csv"),
        results=(paths["results"].read_bytes(), "results.csv"),
    )
    return doc


def test_the_example_tables_go_in_and_every_list_is_what_rate_prints(tmp_path, show_list):
    paths = _files(tmp_path)
    status, out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 0, err
    for system in SYSTEMS:
        doc = _document(paths, system)
        shown = show_list(system, "--as-of", "2025-06-15")
        assert shown == rate_output({**doc, "as_of": "2025-06-15"})
    rr = show_list("mahjong-rr", "--as-of", "2025-06-15")
    # RR lists the Russian players with two tournaments: Maria (1st of 16, 2nd of 28, 2nd in Berlin), Ilya, and
    # r004 (no country in the table: the federation's own). Sato Ken (JP) counts in N only.
    assert [row["player"] for row in rr["list"]] == ["r001", "r002", "r004"]
    assert rr["list"][0]["tournaments"] == 3
    assert rr["excluded"] == [
        {
            "tournament": "2025-04",
            "reason": "an online tournament; fewer than 16 players; not accredited by the federation; not open; "
            "restricted by rank",
            "reason_ru": rr["excluded"][0]["reason_ru"],
        }
    ]
    assert [row["player"] for row in show_list("mahjong-online", "--as-of", "2025-06-15")["list"]] == []
    maria = Player.objects.get(external_id="r001")
    assert (maria.full_name, maria.city, maria.club.name, maria.country) == ("Иванова Мария", "Москва", "Хаку", "RU")
    assert Player.objects.get(external_id="r003").country == "JP"
    assert Player.objects.get(external_id="r004").full_name == "Игрок r004"
    neva = Tournament.objects.get(external_id="2025-02")
    assert (neva.end_date.isoformat(), neva.participants, neva.hanchans) == ("2025-04-20", 28, 20)
    assert list(Stage.objects.filter(tournament=neva).values_list("hanchans", "players")) == [(10, 28), (10, 8)]
    assert Result.objects.filter(tournament=neva, player=None).count() == 6
    online = Tournament.objects.get(external_id="2025-04")
    assert (online.online, online.rank_restricted, online.rank_restriction_legitimate) == (True, True, True)
    # The same tables again: nothing new.
    status, out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 0, err
    assert '"tournaments": 0' in out.split('"unchanged"')[0]


def test_mistakes_are_named_by_file_row_and_column_and_nothing_is_saved(tmp_path):
    tournaments = (EXAMPLES / "mahjong_tournaments.csv").read_text(encoding="utf-8")
    tournaments = tournaments.replace("2025-01;16.03.2025;16;8", "2025-01;31.02.2025;шестнадцать;8")
    tournaments = tournaments.replace(";10+10;", ";10+десять;")
    tournaments = tournaments.replace("Berlin;;;да", "Berlin;;;может быть")
    results = (EXAMPLES / "mahjong_results.csv").read_text(encoding="utf-8") + "2025-09;1;r001;\n2025-04;99;r004;\n"
    paths = _files(tmp_path, tournaments=tournaments)
    status, _out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 1
    assert err.splitlines() == [
        "tournaments.csv, row 2, end_date: '31.02.2025' is not a date (YYYY-MM-DD)",
        "tournaments.csv, row 2, players: 'шестнадцать' is not a whole number",
        "tournaments.csv, row 3, stages: '10+десять' is not a list of stages",
        "tournaments.csv, row 4, ema: 'может быть' is not true or false",
    ]
    paths = _files(tmp_path, results=results)
    status, _out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 1
    assert err.splitlines() == ["results.csv, row 21, tournament: '2025-09' is not in the tournaments"]
    results = (EXAMPLES / "mahjong_results.csv").read_text(encoding="utf-8") + "2025-04;99;r004;\n"
    paths = _files(tmp_path, results=results)
    status, _out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 1
    assert err.splitlines() == ["results.csv, row 21, place: 99 is larger than players (12)"]
    assert not Tournament.objects.exists()
    assert not Player.objects.exists()


def test_a_cutoff_result_between_two_stages_asks_for_the_stages_players(tmp_path):
    results = (
        (EXAMPLES / "mahjong_results.csv").read_text(encoding="utf-8").replace("2025-02;9;r004;10", "2025-02;9;r004;15")
    )
    paths = _files(tmp_path, results=results)
    status, _out, err = run_command("import_spreadsheet", *_args(paths))
    assert status == 1
    assert err.splitlines() == [
        "results.csv, row 15, hanchans: 15 is not the total of a stage (10, 20); give every stage's players"
    ]


def _xlsx(path, csv_text: str) -> None:
    """The CSV example as a workbook, with real dates and numbers in the cells, as a spreadsheet saves them."""
    import datetime as dt

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for line in csv_text.splitlines():
        cells = []
        for cell in line.split(";"):
            if cell.isdigit():
                cells.append(int(cell))
            elif len(cell) == 10 and cell[4] == "-" and cell[:4].isdigit():
                cells.append(dt.datetime.fromisoformat(cell))
            else:
                cells.append(cell or None)
        sheet.append(cells)
    book.save(path)


def test_the_example_as_xlsx_workbooks_gives_the_same_lists(tmp_path, show_list):
    csv_paths = _files(tmp_path)
    paths = {}
    for name in ("players", "tournaments", "results"):
        paths[name] = tmp_path / f"{name}.xlsx"
        _xlsx(paths[name], csv_paths[name].read_text(encoding="utf-8"))
    status, _out, err = run_command("import_spreadsheet", *_args(paths, "mahjong-crr"))
    assert status == 0, err
    assert Tournament.objects.get(external_id="2025-02").end_date.isoformat() == "2025-04-20"
    doc = _document(csv_paths, "mahjong-crr")
    assert show_list("mahjong-crr", "--as-of", "2025-06-15") == rate_output({**doc, "as_of": "2025-06-15"})


COLUMNS = 12  # id, end_date, players, hanchans, stages, country, name, city, accredited, open, ema, online


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    row=st.integers(0, 3),
    column=st.integers(0, COLUMNS - 1),
    cell=st.text(alphabet=st.characters(blacklist_characters=';\n\r"', blacklist_categories=("Cs",)), max_size=12),
)
@example(row=0, column=0, cell="a\x00b")  # found in CI: the whole file is refused, by its name
def test_any_cell_of_the_tournaments_table_is_named_by_file_row_and_column_or_accepted(row, column, cell):
    lines = (EXAMPLES / "mahjong_tournaments.csv").read_text(encoding="utf-8").splitlines()
    cells = lines[row + 1].split(";")
    cells[column] = cell
    lines[row + 1] = ";".join(cells)
    tables = {name: ((EXAMPLES / f"mahjong_{name}.csv").read_bytes(), f"{name}.csv") for name in ("players", "results")}
    where: dict[str, str] = {}
    counts, errors = None, []
    try:
        doc, where = mahjong_spreadsheet_document(
            system="mahjong-rr",
            players=tables["players"],
            tournaments=("\n".join(lines).encode(), "tournaments.csv"),
            results=tables["results"],
        )
        counts = history_check(doc=doc)
    except HistoryError as error:  # any other exception fails: a bad cell is named, never a traceback
        errors = [document_error(e, where) for e in error.errors]
    assert bool(counts) != bool(errors)
    named = ("tournaments.csv, row ", "results.csv, row ")
    if "\x00" in cell:  # a NUL byte makes the whole file "not a CSV text file", refused by the file's name
        named += ("tournaments.csv: ",)
    assert all(line.startswith(named) for line in errors), errors
    assert not Tournament.objects.exists()
