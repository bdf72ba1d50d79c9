"""The spreadsheet path of a federation's history: CSV (or XLSX) tables of players, tournaments and results, turned
into the ``gorbunov`` document ``manage.py import_history`` loads (``ratings.history``), with every error named by
file, row and column instead of the document's path.

Tables (the first row names the columns, in any order; ``;``, ``,`` or tab; UTF-8; ``.csv`` or ``.xlsx``):

- players: ``id``, ``name`` (surname first), ``name_latin``, ``city``, ``club``, ``country``, ``rating`` (the
  starting rating, blank for none); only ``id`` is required;
- tournaments: ``id``, ``date`` (2019-03-07 or 07.03.2019), ``k``, ``format``, ``name``, ``city``, ``sqrt_rule``,
  ``sealed_cap`` (yes/no, blank: as the list says); ``id``, ``date`` and ``k`` are required;
- results: ``tournament``, ``player``, ``place``, all required.

The mahjong lists (``mahjong_spreadsheet_document``; a ``mahjong-rr``, ``mahjong-crr`` or ``mahjong-online`` document,
which loads the tournaments of all three):

- players: ``id``, ``name``, ``name_latin``, ``city``, ``club``, ``country`` (blank: the federation's country);
- tournaments: ``id``, ``end_date``, ``players`` (N, everyone who played), ``hanchans``, ``stages`` (a cut-off
  tournament's hanchans per stage, ``10+10``; the players of each stage then come from the results), ``country``,
  ``name``, ``city``, and the flags ``accredited``, ``open``, ``ema``, ``online``, ``rank_restricted``,
  ``rank_restriction_legitimate`` (yes/no, blank: no); ``id``, ``end_date`` and ``players`` are required, and
  ``hanchans`` or ``stages``;
- results: ``tournament``, ``place``, ``player`` (blank: a participant without a profile), ``hanchans`` (what the
  player played: required in a cut-off tournament).

**Decision:** the spreadsheet path covers the Gorbunov rating and the mahjong lists (tournaments and places); the
other systems come in as documents.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ratings.engines.common import EngineError, FieldError
from ratings.history import HistoryError
from tournaments.importing import table_read

PLAYER_COLUMNS = ("id", "name", "name_latin", "city", "club", "country", "rating")
TOURNAMENT_COLUMNS = ("id", "date", "k", "format", "name", "city", "sqrt_rule", "sealed_cap")
RESULT_COLUMNS = ("tournament", "player", "place")
_RU_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_YES = {"yes", "да", "true", "1", "+"}
_NO = {"no", "нет", "false", "0", "-"}


@dataclass
class Table:
    name: str
    rows: list[tuple[int, dict[str, Any]]]


def _table(content: bytes, filename: str, columns: tuple[str, ...], required: tuple[str, ...]) -> Table:
    try:
        raw = table_read(content=content, filename=filename)
    except FieldError as error:
        raise HistoryError([EngineError(filename, error.message)]) from None
    header_number, header = raw[0]
    keys = [str(cell or "").strip().lower().replace(" ", "_") for cell in header]
    errors = []
    unknown = [key for key in keys if key and key not in columns]
    if unknown:
        errors.append(
            EngineError(f"{filename}, row {header_number}", f"unknown column {unknown[0]!r} ({', '.join(columns)})")
        )
    missing = [key for key in required if key not in keys]
    if missing:
        errors.append(EngineError(f"{filename}, row {header_number}", f"missing column {missing[0]!r}"))
    if errors:
        raise HistoryError(errors)
    rows = []
    for number, cells in raw[1:]:
        values = {}
        for key, cell in zip(keys, cells, strict=False):
            if key and cell is not None and str(cell).strip() != "":
                values[key] = cell.strip() if isinstance(cell, str) else cell
        rows.append((number, values))
    return Table(filename, rows)


def _number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def _date(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str) and (match := _RU_DATE.fullmatch(value)):
        try:
            return dt.date(int(match[3]), int(match[2]), int(match[1])).isoformat()
        except ValueError:
            return value  # named as typed in the error
    return value


def _yes_no(value: Any) -> Any:
    text = str(value).strip().lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    return value


def _text(value: Any) -> str:
    value = _number(value)
    return str(value)


MAHJONG_PLAYER_COLUMNS = ("id", "name", "name_latin", "city", "club", "country")
MAHJONG_FLAGS = ("accredited", "open", "ema", "online", "rank_restricted", "rank_restriction_legitimate")
MAHJONG_TOURNAMENT_COLUMNS = (
    "id",
    "end_date",
    "players",
    "hanchans",
    "stages",
    "country",
    "name",
    "city",
    *MAHJONG_FLAGS,
)
MAHJONG_RESULT_COLUMNS = ("tournament", "place", "player", "hanchans")


def _stages(value: Any) -> Any:
    """``10+10`` as the document's stages; anything else as typed (named in the error)."""
    parts = [part.strip() for part in str(_number(value)).split("+")]
    if all(part.isdigit() for part in parts):
        return [{"hanchans": int(part)} for part in parts]
    return str(value)


def mahjong_spreadsheet_document(
    *,
    system: str,
    players: tuple[bytes, str] | None,
    tournaments: tuple[bytes, str],
    results: tuple[bytes, str],
    country: str = "RU",
) -> tuple[dict[str, Any], dict[str, str]]:
    """The mahjong document of the three tables (see the module), and the map from each document path to its file
    and row. Errors of the tables' shape raise ``HistoryError`` at once."""
    where: dict[str, str] = {}
    doc: dict[str, Any] = {"system": system, "country": country, "players": [], "tournaments": []}
    if players is not None:
        table = _table(*players, MAHJONG_PLAYER_COLUMNS, ("id",))
        for number, values in table.rows:
            entry = {"id": _text(values.get("id", "")), "country": _text(values.get("country", country))}
            for key in ("name", "name_latin", "city", "club"):
                if key in values:
                    entry[key] = _text(values[key])
            where[f"players[{len(doc['players'])}]"] = f"{table.name}, row {number}"
            doc["players"].append(entry)
    table = _table(*tournaments, MAHJONG_TOURNAMENT_COLUMNS, ("id", "end_date", "players"))
    index_of: dict[str, int] = {}
    for number, values in table.rows:
        tournament_id = _text(values.get("id", ""))
        item: dict[str, Any] = {
            "id": tournament_id,
            "end_date": _date(values.get("end_date", "")),
            "players": _number(values.get("players")),
        }
        if "stages" in values:
            item["stages"] = _stages(values["stages"])
        if "hanchans" in values or "stages" not in values:
            item["hanchans"] = _number(values.get("hanchans"))
        for key in ("country", "name", "city"):
            if key in values:
                item[key] = _text(values[key])
        for key in MAHJONG_FLAGS:
            if key in values:
                item[key] = _yes_no(values[key])
        item["results"] = []
        where[f"tournaments[{len(doc['tournaments'])}]"] = f"{table.name}, row {number}"
        index_of.setdefault(tournament_id, len(doc["tournaments"]))
        doc["tournaments"].append(item)
    table = _table(*results, MAHJONG_RESULT_COLUMNS, ("tournament", "place"))
    _results_into(doc, where, index_of, table, _mahjong_result)
    return doc, where


def _mahjong_result(values: dict[str, Any]) -> dict[str, Any]:
    line: dict[str, Any] = {
        "player": _text(values["player"]) if "player" in values else None,
        "place": _number(values.get("place")),
    }
    if "hanchans" in values:
        line["hanchans"] = _number(values["hanchans"])
    return line


def spreadsheet_document(
    *,
    players: tuple[bytes, str] | None,
    tournaments: tuple[bytes, str],
    results: tuple[bytes, str],
    ratings_date: str | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``gorbunov`` document of the three tables, and the map from each document path to its file and row
    (``document_error`` uses it). Errors of the tables' shape raise ``HistoryError`` at once."""
    where: dict[str, str] = {}
    doc: dict[str, Any] = {"system": "gorbunov", "ratings": {}, "players": [], "tournaments": []}
    if ratings_date:
        doc["ratings_date"] = ratings_date
    if players is not None:
        table = _table(*players, PLAYER_COLUMNS, ("id",))
        for number, values in table.rows:
            person_id = _text(values.get("id", ""))
            entry = {"id": person_id}
            for key in ("name", "name_latin", "city", "club", "country"):
                if key in values:
                    entry[key] = _text(values[key])
            where[f"players[{len(doc['players'])}]"] = f"{table.name}, row {number}"
            doc["players"].append(entry)
            if "rating" in values:
                where[f"ratings.{person_id}"] = f"{table.name}, row {number}, rating"
                doc["ratings"][person_id] = _number(values["rating"])
    table = _table(*tournaments, TOURNAMENT_COLUMNS, ("id", "date", "k"))
    index_of: dict[str, int] = {}
    for number, values in table.rows:
        tournament_id = _text(values.get("id", ""))
        item: dict[str, Any] = {
            "id": tournament_id,
            "date": _date(values.get("date", "")),
            "k": _number(values.get("k")),
        }
        for key in ("format", "name", "city"):
            if key in values:
                item[key] = _text(values[key])
        for key in ("sqrt_rule", "sealed_cap"):
            if key in values:
                item[key] = _yes_no(values[key])
        item["results"] = []
        where[f"tournaments[{len(doc['tournaments'])}]"] = f"{table.name}, row {number}"
        index_of.setdefault(tournament_id, len(doc["tournaments"]))
        doc["tournaments"].append(item)
    table = _table(*results, RESULT_COLUMNS, RESULT_COLUMNS)
    _results_into(
        doc,
        where,
        index_of,
        table,
        lambda values: {"player": _text(values.get("player", "")), "place": _number(values.get("place"))},
    )
    return doc, where


def _results_into(
    doc: dict[str, Any],
    where: dict[str, str],
    index_of: dict[str, int],
    table: Table,
    line: Callable[[dict[str, Any]], dict[str, Any]],
) -> None:
    """Each row of the results table, as ``line`` makes it, into its tournament's results (a row naming no tournament
    of the tournaments table is an error); ``where`` learns each result's file and row."""
    errors = []
    for number, values in table.rows:
        tournament_id = _text(values.get("tournament", ""))
        if tournament_id not in index_of:
            errors.append(
                EngineError(f"{table.name}, row {number}, tournament", f"{tournament_id!r} is not in the tournaments")
            )
            continue
        index = index_of[tournament_id]
        results_list = doc["tournaments"][index]["results"]
        where[f"tournaments[{index}].results[{len(results_list)}]"] = f"{table.name}, row {number}"
        results_list.append(line(values))
    if errors:
        raise HistoryError(errors)


_PATH = re.compile(
    r"^(tournaments\[\d+\]\.results\[\d+\]|tournaments\[\d+\]|players\[\d+\]|ratings\.[^:]+?)"
    r"(\.(\w+)(\[\d+\](\.\w+)?)?)?$"
)


def document_error(error: FieldError, where: dict[str, str]) -> str:
    """An error of the document as the spreadsheet's person reads it: file, row and column."""
    match = _PATH.match(error.field)
    if match and match[1] in where:
        place = where[match[1]]
        column = match[3]
        return f"{place}{', ' + column if column else ''}: {error.message}"
    return str(error)
