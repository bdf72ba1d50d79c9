"""Issue 13's import bounds: an XLSX measured unpacked before parsing, a CSV read row by row and refused early."""

import io
import time
import tracemalloc
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from federation import bounds
from federation.uploads import ImportFileError
from tests.factories import ResultFactory, TournamentFactory, organiser
from tournaments.importing import MAX_ROWS, table_read
from tournaments.models import Result, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _workbook(rows=(("place", "player_id"), (1, 12))) -> bytes:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _with_part(content: bytes, name: str, payload: bytes) -> bytes:
    """The workbook with one part added or replaced by ``payload`` (deflated, as Excel writes)."""
    source = zipfile.ZipFile(io.BytesIO(content))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            if item.filename != name:
                target.writestr(item, source.read(item.filename))
        target.writestr(name, payload)
    return out.getvalue()


def _shared_strings_bomb(size: int) -> bytes:
    text = b"a" * size
    return (
        b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
        b' count="1" uniqueCount="1"><si><t>' + text + b"</t></si></sst>"
    )


def test_a_decompression_bomb_is_refused_before_it_is_parsed():
    bomb = _with_part(_workbook(), "xl/sharedStrings.xml", _shared_strings_bomb(bounds.XLSX_MAX_UNCOMPRESSED_BYTES + 1))
    assert len(bomb) < bounds.UPLOAD_MAX_BYTES  # the upload's own size check lets it through
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(ImportFileError, match="unpacks to"):
        table_read(content=bomb, filename="results.xlsx")
    elapsed = time.perf_counter() - started
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 5 * 1024 * 1024  # the 20 MB string was never unpacked
    assert elapsed < 5


def test_a_part_that_swells_past_the_ratio_is_refused_though_the_total_is_small():
    swollen = _with_part(_workbook(), "xl/sharedStrings.xml", _shared_strings_bomb(3 * 1024 * 1024))
    with pytest.raises(ImportFileError, match="unpacks to"):
        table_read(content=swollen, filename="results.xlsx")


def test_a_workbook_of_too_many_parts_is_refused():
    source = zipfile.ZipFile(io.BytesIO(_workbook()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            target.writestr(item, source.read(item.filename))
        for n in range(bounds.XLSX_MAX_PARTS):
            target.writestr(f"xl/more/{n}.xml", b"<x/>")
    with pytest.raises(ImportFileError, match="parts"):
        table_read(content=out.getvalue(), filename="results.xlsx")


def test_an_ordinary_workbook_is_still_read():
    rows = table_read(content=_workbook(), filename="results.xlsx")
    assert rows[0] == (1, ["place", "player_id"])


def test_a_million_line_csv_is_refused_at_its_row_limit_without_reading_it_whole():
    content = b"place;player_id\n" + b"1;2\n" * 1_000_000
    tracemalloc.start()
    with pytest.raises(ImportFileError, match=f"more than {MAX_ROWS} rows"):
        table_read(content=content, filename="results.csv")
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # The decoded text and one copy of it; the million rows as lists took over 200 MB.
    assert peak < 6 * len(content)


def test_a_million_empty_lines_are_refused_too():
    with pytest.raises(ImportFileError, match="rows"):
        table_read(content=b"place;player_id\n" + b"\n" * 1_000_000, filename="results.csv")


def test_the_admin_answers_a_bomb_with_a_message_and_saves_nothing(client):
    owner = organiser()
    tournament = TournamentFactory(status=TournamentStatus.DRAFT, organiser=owner, k=1)
    ResultFactory(tournament=tournament, place=1)
    client.force_login(owner)
    bomb = _with_part(_workbook(), "xl/sharedStrings.xml", _shared_strings_bomb(bounds.XLSX_MAX_UNCOMPRESSED_BYTES + 1))
    response = client.post(
        f"/en/admin/tournaments/tournament/{tournament.pk}/import/",
        {"file": SimpleUploadedFile("results.xlsx", bomb), "preview": "1"},
    )
    assert response.status_code == 200
    assert "unpacks to" in response.content.decode()
    assert Result.objects.filter(tournament=tournament).count() == 1
