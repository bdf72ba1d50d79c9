"""Downloads of list pages (CSV and XLSX): exactly the rows the page's filter shows, in the page's column order.

What a spreadsheet in the reader's language needs, decided here once for every list:

- CSV starts with a UTF-8 byte-order mark (a Russian Excel otherwise reads it as Windows-1251); on the Russian
  pages it is separated by ``;`` with a decimal comma (what a Russian Excel expects), on the English ones by ``,``
  with a decimal point. Dates are ISO (``2026-11-28``), which spreadsheets in both languages read as dates.
- XLSX keeps numbers as numbers and dates as dates.
- Every list about players carries the player's id (a hidden column of the page's table), to tell namesakes apart.
- Formula neutralisation (issue 13): a text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return would be run as a formula by a spreadsheet. In CSV such a cell is written with a leading apostrophe
  (shown by no spreadsheet, kept as text by all); in XLSX it is stored as a typed text cell, never a formula.
  Numbers are not text: a negative change stays a number.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language
from django_tables2 import Table

FORMATS = ("csv", "xlsx")
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: A text cell starting with one of these is a formula (or a DDE payload) to a spreadsheet.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise(text: str) -> str:
    """A text cell a spreadsheet will show and never run (CSV)."""
    return "'" + text if text.startswith(FORMULA_START) else text


def _csv_cell(value, *, decimal_comma: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float | Decimal):
        text = f"{value}" if not isinstance(value, float) else repr(value)
        return text.replace(".", ",") if decimal_comma else text
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return neutralise(str(value))


def table_rows(table: Table) -> list[list]:
    """The header and every row of the table (all pages), values typed as the columns' ``value_*`` give them."""
    return [list(row) for row in table.as_values()]


def csv_bytes(rows: list[list], *, language: str) -> bytes:
    russian = language.startswith("ru")
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";" if russian else ",", lineterminator="\r\n")
    for row in rows:
        writer.writerow([_csv_cell(value, decimal_comma=russian) for value in row])
    return buffer.getvalue().encode("utf-8-sig")


def xlsx_bytes(rows: list[list], *, title: str = "list") -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=title[:31] or "list")
    for row in rows:
        cells = []
        for value in row:
            if isinstance(value, Decimal):
                value = float(value)
            elif value is not None and not isinstance(value, int | float | bool | dt.date | dt.datetime):
                value = str(value)
            cell = WriteOnlyCell(sheet, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # text, even when it begins with "=": never a formula
            cells.append(cell)
        sheet.append(cells)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def download_response(request: HttpRequest, table: Table, name: str) -> HttpResponse | None:
    """The table as CSV or XLSX when the address asks for ``?_export=csv`` / ``xlsx``, else None (render the
    page). Any other ``_export`` value renders the page: a visitor's typo is not an error."""
    kind = request.GET.get("_export")
    if kind not in FORMATS:
        return None
    rows = table_rows(table)
    if kind == "xlsx":
        response = HttpResponse(xlsx_bytes(rows, title=name), content_type=XLSX_TYPE)
    else:
        response = HttpResponse(
            csv_bytes(rows, language=get_language() or "ru"), content_type="text/csv; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{name}.{kind}"'
    response["Cache-Control"] = "no-cache"
    return response


#: The name every view imported before XLSX came.
csv_response = download_response
