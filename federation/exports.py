"""CSV downloads of list pages: exactly the rows the page's filter shows, in the page's column order."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django_tables2 import Table
from django_tables2.export import TableExport

#: The one format the pages offer; other ``_export`` values are ignored (tablib would fail on formats whose
#: optional packages are not installed, and a visitor's typo must not be a 500).
FORMAT = "csv"


def csv_response(request: HttpRequest, table: Table, name: str) -> HttpResponse | None:
    """The table as CSV when the address asks for ``?_export=csv``, else None (render the page)."""
    if request.GET.get("_export") != FORMAT:
        return None
    return TableExport(FORMAT, table).response(f"{name}.{FORMAT}")
