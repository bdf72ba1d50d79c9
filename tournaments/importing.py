"""Reading a tournament's results from a CSV or XLSX file and checking them before anything is saved.

The admin import (``tournaments.admin_import``) calls ``results_parse`` twice: once for the preview and once more on
confirmation, on the copy of the file kept on the server, so the browser is never trusted. Saving is
``tournaments.services.tournament_results_replace``'s job; nothing here writes.

The file format
---------------
* ``.csv`` in UTF-8 (with or without a BOM), cells separated by commas, semicolons or tabs (guessed from the header
  line), or ``.xlsx`` (the first sheet is read).
* The first non-empty row is the header; header names are case-insensitive, in English or Russian, spaces and
  underscores alike. Rows are numbered as a spreadsheet shows them: the header is usually row 1, the first result
  row 2. Empty rows are skipped.
* Columns (only ``place`` is always required, plus one way of naming each participant):

  ===================  ==========================  ==============================================================
  column               also accepted               value
  ===================  ==========================  ==============================================================
  place                место                       whole number from 1 (required)
  player_id            id, id_игрока               the player's id on this site
  ema_id               ema, id_ema                 the player's EMA id
  surname              фамилия, last_name          surname, Cyrillic or Latin; matched with ``name`` exactly on the
  name                 имя, first_name             normalized full name (case and ё/е ignored)
  player               игрок                       "Surname Name" in one cell, matched the same way
  participant          участник                    a participant without a profile (kept by name, counts in N)
  hanchans             ханчаны, hanchans_played    hanchans played (mahjong)
  substitute           замена                      yes/no, да/нет, 1/0, + or empty
  start_date           дата_начала                 optional cross-check of the tournament's dates
  end_date             дата_окончания              (YYYY-MM-DD or DD.MM.YYYY)
  ===================  ==========================  ==============================================================

  Other columns (a club, a score) are ignored and listed in the preview.

Every problem is reported with its row and field, in the user's language, and all of them at once. The place rules
follow ``tournament_result_problems`` (rules/gorbunov.md, "Decision (size)"): no place above the number of
participants (for mahjong the tournament's N when it is larger), and in card games distinct places without gaps.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import PurePath

from django.db.models import Q
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.bounds import API_MAX_ID
from federation.models import Player, normalize_name
from federation.uploads import ImportFileError, xlsx_measure
from tournaments.models import Discipline, Tournament
from tournaments.services import ResultRow, place_problems, tournament_result_problems

#: Enough for any real tournament; a guard against a small XLSX that unpacks into millions of rows.
MAX_ROWS = 5000
#: Cells beyond this column are not read.
MAX_COLUMNS = 40
#: Names looked up per query (each name is two LIKE conditions; SQLite limits the depth of an expression).
NAME_BATCH = 250

EXTENSIONS = (".csv", ".xlsx")

#: Column key -> (label for messages, accepted header names after ``_header_key``).
COLUMNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "place": (gettext_lazy("place"), ("place", "место")),
    "player_id": (gettext_lazy("player id"), ("player_id", "id", "id_игрока", "игрок_id")),
    "ema_id": (gettext_lazy("EMA id"), ("ema_id", "ema", "id_ema")),
    "surname": (gettext_lazy("surname"), ("surname", "last_name", "фамилия")),
    "name": (gettext_lazy("first name"), ("name", "first_name", "имя")),
    "player": (gettext_lazy("player"), ("player", "игрок")),
    "participant": (
        gettext_lazy("participant without a profile"),
        ("participant", "participant_name", "участник"),
    ),
    "hanchans": (gettext_lazy("hanchans played"), ("hanchans", "hanchans_played", "ханчаны", "ханчанов")),
    "substitute": (gettext_lazy("substitute"), ("substitute", "замена")),
    "start_date": (gettext_lazy("start date"), ("start_date", "дата_начала")),
    "end_date": (gettext_lazy("end date"), ("end_date", "дата_окончания")),
}
IDENTITY_COLUMNS = ("player_id", "ema_id", "surname", "player", "participant")
HEADER_ALIASES = {alias: key for key, (_label, aliases) in COLUMNS.items() for alias in aliases}

TRUE_WORDS = {"1", "yes", "y", "true", "да", "д", "+", "x", "х", "v"}
FALSE_WORDS = {"", "0", "no", "n", "false", "нет", "н", "-"}

# Two people in one cell: "Иванов Иван, Петров Пётр", "Иванов / Петров", "Иванов и Петров", "Smith and Jones".
TWO_NAMES = re.compile(r"[,;/&+]|\s(?:и|and)\s", re.IGNORECASE)
TWO_IDS = re.compile(r"[0-9]+(?:\s*(?:[,;/&+]|\s|\sи\s|\sand\s)\s*[0-9]+)+", re.IGNORECASE)
WHOLE = re.compile(r"[+-]?[0-9]+(?:[.,]0+)?", re.ASCII)
DECIMAL = re.compile(r"[+-]?[0-9]*[.,]?[0-9]+(?:[eE][+-]?[0-9]+)?", re.ASCII)
ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})", re.ASCII)
RU_DATE = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})", re.ASCII)


@dataclass(frozen=True)
class ImportProblem:
    """One problem: the row as the user sees it (``None`` for the tournament or the file as a whole) and the field."""

    row: int | None
    field: str
    message: str

    def __str__(self) -> str:
        if self.row is None:
            return _("%(field)s: %(message)s") % {"field": capfirst(self.field), "message": self.message}
        return _("Row %(row)s, %(field)s: %(message)s") % {
            "row": self.row,
            "field": self.field,
            "message": self.message,
        }


@dataclass
class ParsedRow:
    """A result row as read, with what it resolved to; ``problems`` are this row's, for the preview."""

    row: int
    place: int | None = None
    player: Player | None = None
    participant_name: str = ""
    hanchans_played: int | None = None
    substitute: bool = False
    given_name: str = ""
    problems: list[ImportProblem] = field(default_factory=list)

    def to_result_row(self) -> ResultRow:
        return ResultRow(
            place=self.place or 0,
            player_id=self.player.pk if self.player else None,
            participant_name=self.participant_name,
            hanchans_played=self.hanchans_played,
            substitute=self.substitute,
        )


@dataclass
class ImportReport:
    """What the preview shows: every row, every problem, and notes that do not stop the import."""

    rows: list[ParsedRow] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rows_read: int = 0

    @property
    def is_clean(self) -> bool:
        return not self.problems and bool(self.rows)

    def result_rows(self) -> list[ResultRow]:
        if not self.is_clean:
            raise ValueError("results with problems are not saved")
        return [row.to_result_row() for row in self.rows]

    def add(self, row: ParsedRow | None, column: str, message: str) -> None:
        problem = ImportProblem(row=row.row if row else None, field=str(COLUMNS[column][0]), message=message)
        self.problems.append(problem)
        if row is not None:
            row.problems.append(problem)


# Reading the file --------------------------------------------------------------------------------------------------


def table_read(*, content: bytes, filename: str) -> list[tuple[int, list[object]]]:
    """The file's non-empty rows as ``(row number, cells)``; raises ``ImportFileError`` with the reason."""
    suffix = PurePath(filename or "").suffix.lower()
    if suffix not in EXTENSIONS:
        raise ImportFileError(
            _("Only .csv and .xlsx files can be imported; this file is %(suffix)s.")
            % {"suffix": suffix or _("without an extension")}
        )
    if not content:
        raise ImportFileError(_("The file is empty."))
    rows = _xlsx_rows(content) if suffix == ".xlsx" else _csv_rows(content)
    table: list[tuple[int, list[object]]] = []
    for number, cells in rows:
        cells = list(cells[:MAX_COLUMNS])
        while cells and _blank(cells[-1]):
            cells.pop()
        if not cells:
            continue
        if len(table) > MAX_ROWS:
            raise ImportFileError(_("The file has more than %(count)s rows.") % {"count": MAX_ROWS})
        table.append((number, cells))
    if not table:
        raise ImportFileError(_("The file has no rows."))
    return table


def _csv_rows(content: bytes):
    """The CSV's rows one by one, never the whole file first: a million-line file is refused at its row limit
    (``table_read``) after reading that many lines, not after building a million lists."""
    if b"\x00" in content[:4096]:
        raise ImportFileError(_("The file is not a CSV text file. Save the sheet as CSV (UTF-8) or XLSX."))
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportFileError(
            _("The file is not in UTF-8. In Excel choose «CSV UTF-8 (comma delimited)» when saving.")
        ) from error
    stream = io.StringIO(text, newline="")
    first_line = next((line for line in stream if line.strip()), "")
    stream.seek(0)
    delimiter = max(";,\t", key=first_line.count) if any(d in first_line for d in ";,\t") else ","
    return _csv_stream(csv.reader(stream, delimiter=delimiter))


def _csv_stream(reader):
    number = 0
    try:
        for number, cells in enumerate(reader, start=1):
            if number > MAX_ROWS * 2:
                raise ImportFileError(_("The file has more than %(count)s rows.") % {"count": MAX_ROWS})
            yield number, cells
    except csv.Error as error:
        raise ImportFileError(_("The CSV file is malformed: %(error)s") % {"error": error}) from error


def _xlsx_rows(content: bytes):
    import openpyxl

    if not zipfile.is_zipfile(io.BytesIO(content)):
        raise ImportFileError(_("The file is not an XLSX workbook. Save it from Excel or LibreOffice as .xlsx."))
    xlsx_measure(content)
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds of errors on damaged files
        raise ImportFileError(_("The XLSX workbook cannot be read; it may be damaged.")) from error
    try:
        if not workbook.worksheets:
            raise ImportFileError(_("The XLSX workbook has no sheets."))
        sheet = workbook.worksheets[0]
        rows = []
        for number, cells in enumerate(sheet.iter_rows(min_row=1, max_col=MAX_COLUMNS, values_only=True), start=1):
            rows.append((number, list(cells)))
            if number > MAX_ROWS * 2:
                raise ImportFileError(_("The file has more than %(count)s rows.") % {"count": MAX_ROWS})
        return rows
    except ImportFileError:
        raise
    except Exception as error:
        raise ImportFileError(_("The XLSX workbook cannot be read; it may be damaged.")) from error
    finally:
        workbook.close()


# Cells ---------------------------------------------------------------------------------------------------------------


class _BadCell(ValueError):
    pass


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def _whole_number(value: object) -> int | None:
    """A whole number from a cell; raises ``_BadCell`` with the message for a non-number or a fraction."""
    if _blank(value):
        return None
    if isinstance(value, bool):
        raise _BadCell(_("«%(value)s» is not a number.") % {"value": value})
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise _BadCell(_("«%(value)s» is not a number.") % {"value": value})
        if not value.is_integer():
            raise _BadCell(_("%(value)s is not a whole number.") % {"value": value})
        return int(value)
    text = _text(value)
    if WHOLE.fullmatch(text):
        return int(re.split(r"[.,]", text)[0])
    if DECIMAL.fullmatch(text):
        raise _BadCell(_("%(value)s is not a whole number.") % {"value": text})
    raise _BadCell(_("«%(value)s» is not a number.") % {"value": text})


def _yes_no(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = _text(value).lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise _BadCell(_("«%(value)s» is neither yes nor no.") % {"value": text})


def _date(value: object) -> datetime.date | None:
    if _blank(value):
        return None
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    text = _text(value)
    try:
        if match := ISO_DATE.fullmatch(text):
            return datetime.date(int(match[1]), int(match[2]), int(match[3]))
        if match := RU_DATE.fullmatch(text):
            return datetime.date(int(match[3]), int(match[2]), int(match[1]))
    except ValueError:
        pass
    raise _BadCell(_("«%(value)s» is not a date; write it as 2026-03-07 or 07.03.2026.") % {"value": text})


def _header_key(value: object) -> str:
    return re.sub(r"[\s\-]+", "_", normalize_name(_text(value)).strip("_ "))


# Checking -------------------------------------------------------------------------------------------------------------


def results_parse(*, tournament: Tournament, content: bytes, filename: str, row_offset: int = 0) -> ImportReport:
    """Read and check a results file for ``tournament``; raises ``ImportFileError`` if it is not a table at all.

    ``row_offset``: lines of ``content`` that the person did not write (the header the results editor adds to a
    pasted table): every row is named by its number in what the person wrote; the added header by none."""
    table = [(number - row_offset, cells) for number, cells in table_read(content=content, filename=filename)]
    report = ImportReport()
    if tournament.start_date and tournament.end_date and tournament.end_date < tournament.start_date:
        report.add(
            None,
            "end_date",
            _("the tournament ends (%(end)s) before it starts (%(start)s); correct the tournament's dates first.")
            % {"end": tournament.end_date.isoformat(), "start": tournament.start_date.isoformat()},
        )

    header_row, header = table[0]
    header_row = header_row if header_row >= 1 else None
    columns: dict[str, int] = {}
    ignored: list[str] = []
    for index, cell in enumerate(header):
        key = HEADER_ALIASES.get(_header_key(cell))
        if key is None:
            if not _blank(cell):
                ignored.append(_text(cell))
        elif key in columns:
            report.problems.append(
                ImportProblem(
                    header_row, str(COLUMNS[key][0]), _("the column «%(name)s» appears twice.") % {"name": _text(cell)}
                )
            )
        else:
            columns[key] = index
    if ignored:
        report.notes.append(_("Columns not used: %(names)s.") % {"names": ", ".join(ignored)})
    if "place" not in columns:
        report.problems.append(
            ImportProblem(header_row, str(COLUMNS["place"][0]), _("the column «place» (место) is missing."))
        )
    if not any(key in columns for key in IDENTITY_COLUMNS):
        report.problems.append(
            ImportProblem(
                header_row,
                str(COLUMNS["player"][0]),
                _(
                    "no column names the players; add «player_id», «surname» and «name», «player», «ema_id» "
                    "or «participant»."
                ),
            )
        )
    if "name" in columns and "surname" not in columns:
        report.problems.append(
            ImportProblem(
                header_row, str(COLUMNS["surname"][0]), _("the column «surname» (фамилия) is missing beside «name».")
            )
        )
    data = table[1:]
    report.rows_read = len(data)
    if report.problems:
        return report
    if not data:
        report.problems.append(ImportProblem(header_row, str(COLUMNS["place"][0]), _("the file has no result rows.")))
        return report

    width = len(header)
    cells_by_row: list[tuple[ParsedRow, dict[str, object]]] = []
    for number, cells in data:
        row = ParsedRow(row=number)
        report.rows.append(row)
        if len(cells) > width:
            report.add(
                row,
                "player",
                _(
                    "the row has %(cells)s cells but the header only %(width)s; is there a separator inside a "
                    "name (two players on one line)? Put such a name in quotes."
                )
                % {"cells": len(cells), "width": width},
            )
        values = {key: (cells[index] if index < len(cells) else None) for key, index in columns.items()}
        cells_by_row.append((row, values))
        _read_numbers(report, row, values)

    _check_dates(report, tournament, cells_by_row)
    _resolve_players(report, cells_by_row)
    _check_places(report, tournament)
    if tournament.discipline == Discipline.MAHJONG and tournament.hanchans:
        for row in report.rows:
            if row.hanchans_played is not None and row.hanchans_played > tournament.hanchans:
                report.add(
                    row,
                    "hanchans",
                    _("%(played)s is more than the tournament's %(hanchans)s hanchans.")
                    % {"played": row.hanchans_played, "hanchans": tournament.hanchans},
                )
    report.problems.sort(key=lambda problem: problem.row or 0)
    if not report.problems:
        # What would still stop the tournament from being submitted (K, hanchans not entered): a note, not a block.
        places = [row.place for row in report.rows if row.place is not None]
        report.notes.extend(tournament_result_problems(tournament=tournament, places=places))
    return report


def _read_numbers(report: ImportReport, row: ParsedRow, values: dict[str, object]) -> None:
    try:
        row.place = _whole_number(values.get("place"))
        if row.place is None:
            report.add(row, "place", _("the place is empty."))
        elif row.place < 1:
            report.add(row, "place", _("%(place)s is below 1.") % {"place": row.place})
            row.place = None
    except _BadCell as error:
        report.add(row, "place", str(error))
    try:
        row.hanchans_played = _whole_number(values.get("hanchans"))
        if row.hanchans_played is not None and row.hanchans_played < 0:
            report.add(row, "hanchans", _("%(value)s is below 0.") % {"value": row.hanchans_played})
            row.hanchans_played = None
    except _BadCell as error:
        report.add(row, "hanchans", str(error))
    try:
        row.substitute = _yes_no(values.get("substitute"))
    except _BadCell as error:
        report.add(row, "substitute", str(error))


def _check_dates(report: ImportReport, tournament: Tournament, cells_by_row) -> None:
    """The optional date columns must agree on every row, with each other and with the tournament."""
    seen: dict[str, tuple[datetime.date, int]] = {}
    reversed_dates = False
    for row, values in cells_by_row:
        dates: dict[str, datetime.date] = {}
        for key in ("start_date", "end_date"):
            try:
                value = _date(values.get(key))
            except _BadCell as error:
                report.add(row, key, str(error))
                continue
            if value is None:
                continue
            dates[key] = value
            if key in seen and seen[key][0] != value:
                report.add(
                    row,
                    key,
                    _("%(date)s differs from %(other)s in row %(row)s.")
                    % {"date": value.isoformat(), "other": seen[key][0].isoformat(), "row": seen[key][1]},
                )
            seen.setdefault(key, (value, row.row))
        if "start_date" in dates and "end_date" in dates and dates["end_date"] < dates["start_date"]:
            report.add(
                row,
                "end_date",
                _("the end date %(end)s is before the start date %(start)s.")
                % {"end": dates["end_date"].isoformat(), "start": dates["start_date"].isoformat()},
            )
            reversed_dates = True
    if reversed_dates:
        return
    for key, attribute in (("start_date", tournament.start_date), ("end_date", tournament.end_date)):
        if key in seen and attribute and seen[key][0] != attribute:
            value, number = seen[key]
            row = next(row for row, _values in cells_by_row if row.row == number)
            report.add(
                row,
                key,
                _("the file says %(date)s but the tournament says %(tournament)s; correct one of them.")
                % {"date": value.isoformat(), "tournament": attribute.isoformat()},
            )


def _resolve_players(report: ImportReport, cells_by_row) -> None:
    """Match each row to one player or one participant without a profile, with all lookups in one query."""
    wanted_ids: set[int] = set()
    wanted_ema: set[str] = set()
    wanted_names: set[str] = set()
    parsed: list[tuple[ParsedRow, int | None, str, str, str]] = []
    for row, values in cells_by_row:
        split = False
        for key in ("surname", "name", "player", "participant", "ema_id"):
            text = _text(values.get(key))
            if text and TWO_NAMES.search(text):
                report.add(
                    row, key, _("«%(value)s» looks like two people; put one player on each line.") % {"value": text}
                )
                split = True
        player_id = None
        id_text = _text(values.get("player_id"))
        if TWO_IDS.fullmatch(id_text):
            report.add(
                row, "player_id", _("«%(value)s» looks like two ids; put one player on each line.") % {"value": id_text}
            )
            split = True
        else:
            try:
                player_id = _whole_number(values.get("player_id"))
            except _BadCell as error:
                report.add(row, "player_id", str(error))
                split = True
        if player_id is not None and not 1 <= player_id <= API_MAX_ID:  # beyond the id column's range: nobody
            report.add(row, "player_id", _("no player with id %(id)s.") % {"id": player_id})
            split = True
            player_id = None
        surname, first_name = _text(values.get("surname")), _text(values.get("name"))
        if first_name and not surname:
            report.add(row, "surname", _("the surname is empty but the first name is %(name)s.") % {"name": first_name})
            split = True
        full_name = normalize_name(f"{surname} {first_name}")
        one_cell = normalize_name(_text(values.get("player")))
        if full_name and one_cell and full_name != one_cell:
            report.add(
                row,
                "player",
                _("«%(one)s» and «%(two)s» are two different names on one line.")
                % {"one": _text(values.get("player")), "two": f"{surname} {first_name}".strip()},
            )
            split = True
        name = full_name or one_cell
        row.given_name = f"{surname} {first_name}".strip() or _text(values.get("player"))
        ema_id = _text(values.get("ema_id"))
        participant = _text(values.get("participant"))
        if split:
            continue
        if participant and (player_id is not None or ema_id or name):
            report.add(
                row,
                "participant",
                _("the line names a player and also a participant without a profile (%(name)s).")
                % {"name": participant},
            )
            continue
        if participant:
            row.participant_name = participant
            row.given_name = participant
            continue
        if player_id is None and not ema_id and not name:
            report.add(
                row,
                "player",
                _("nobody is named: give the player id, the surname and name, the EMA id or the participant."),
            )
            continue
        if player_id is not None:
            wanted_ids.add(player_id)
        if ema_id:
            wanted_ema.add(ema_id)
        if name:
            wanted_names.add(name)
        parsed.append((row, player_id, ema_id, name, "surname" if full_name else "player"))

    by_id, by_ema, by_name = _players_find(ids=wanted_ids, ema_ids=wanted_ema, names=wanted_names)

    first_row_of: dict[int, int] = {}
    for row, player_id, ema_id, name, name_key in parsed:
        given_name = row.given_name
        found: list[tuple[str, Player]] = []
        if player_id is not None:
            if player_id not in by_id:
                report.add(row, "player_id", _("no player with id %(id)s.") % {"id": player_id})
                continue
            found.append(("player_id", by_id[player_id]))
        if ema_id:
            if ema_id not in by_ema:
                report.add(row, "ema_id", _("no player with EMA id %(id)s.") % {"id": ema_id})
                continue
            found.append(("ema_id", by_ema[ema_id]))
        if name and found:
            # A name beside an id confirms it; a different name is a second person.
            if name not in _names_of(found[0][1]):
                report.add(
                    row,
                    name_key,
                    _("id %(id)s is %(player)s, but the name says %(name)s: two players on one line.")
                    % {"id": found[0][1].pk, "player": found[0][1].full_name, "name": given_name},
                )
                continue
        elif name:
            candidates = by_name.get(name, [])
            if not candidates:
                report.add(
                    row,
                    name_key,
                    _(
                        "no player named «%(name)s»; check the spelling, give the player id, or put the name in the "
                        "«participant» column if they have no profile."
                    )
                    % {"name": given_name},
                )
                continue
            if len(candidates) > 1:
                report.add(
                    row,
                    name_key,
                    _("«%(name)s» matches several players (ids %(ids)s); give the player id instead.")
                    % {"name": given_name, "ids": ", ".join(str(p.pk) for p in candidates)},
                )
                continue
            found.append((name_key, candidates[0]))
        players = {player.pk: player for _key, player in found}
        if len(players) > 1:
            report.add(
                row,
                found[1][0],
                _("the line names two players: %(players)s.")
                % {"players": ", ".join(f"{p.full_name} (id {p.pk})" for p in players.values())},
            )
            continue
        player = found[0][1]
        if player.pk in first_row_of:
            report.add(
                row,
                found[0][0],
                _("%(player)s (id %(id)s) is already in row %(row)s: the same player twice.")
                % {"player": player.full_name, "id": player.pk, "row": first_row_of[player.pk]},
            )
            continue
        first_row_of[player.pk] = row.row
        row.player = player


def _names_of(player: Player) -> set[str]:
    return {name for name in (normalize_name(player.full_name), normalize_name(player.full_name_latin)) if name}


def _players_find(
    *, ids: set[int], ema_ids: set[str], names: set[str]
) -> tuple[dict[int, Player], dict[str, Player], dict[str, list[Player]]]:
    """Every player the file may mean, in one query (a few for very long files): by id, EMA id and full name.

    ``search_name`` is the Cyrillic name followed by the Latin one, so a full name is a prefix or a suffix of it; the
    exact comparison is made here, on either alphabet's full name.
    """
    by_id: dict[int, Player] = {}
    by_ema: dict[str, Player] = {}
    by_name: dict[str, list[Player]] = defaultdict(list)
    names_list = sorted(names)
    batches = [names_list[i : i + NAME_BATCH] for i in range(0, len(names_list), NAME_BATCH)] or [[]]
    seen: set[int] = set()
    for index, batch in enumerate(batches):
        condition = Q()
        if index == 0:
            if ids:
                condition |= Q(pk__in=ids)
            if ema_ids:
                condition |= Q(ema_id__in=ema_ids)
        for name in batch:
            condition |= Q(search_name__startswith=name) | Q(search_name__endswith=name)
        if not condition:
            continue
        for player in Player.objects.filter(condition).order_by("pk"):
            if player.pk in seen:
                continue
            seen.add(player.pk)
            if player.pk in ids:
                by_id[player.pk] = player
            if player.ema_id and player.ema_id in ema_ids:
                by_ema[player.ema_id] = player
            for name in _names_of(player) & names:
                by_name[name].append(player)
    return by_id, by_ema, dict(by_name)


def _check_places(report: ImportReport, tournament: Tournament) -> None:
    """The place rules of ``place_problems`` (shared with the approval), told row by row."""
    rows = [row for row in report.rows if row.place is not None]
    declared = tournament.participants if tournament.discipline == Discipline.MAHJONG else None
    participants = max(len(report.rows), declared or 0)
    found = place_problems(
        discipline=tournament.discipline, places=[row.place for row in rows], participants=participants
    )
    if len(rows) != len(report.rows):
        found = [problem for problem in found if problem.kind != "gaps"]
    for problem in found:
        if problem.kind == "too_large":
            report.add(
                rows[problem.index],
                "place",
                _("%(place)s is larger than the number of participants (%(count)s).")
                % {"place": problem.place, "count": problem.participants},
            )
        elif problem.kind == "shared":
            report.add(
                rows[problem.index],
                "place",
                _("place %(place)s is also in row %(row)s; places must be distinct in card games.")
                % {"place": problem.place, "row": rows[problem.first_index].row},
            )
        else:
            report.add(
                None,
                "place",
                _("places have gaps: missing %(places)s.") % {"places": ", ".join(map(str, problem.missing[:10]))},
            )
