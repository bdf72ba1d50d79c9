"""Issue 13's files in the admin: a valid 2 MB preferans deals CSV previewed (every deal rated, rolled back) and
confirmed, and the results import refusing a decompression bomb and a million-line CSV.

Runs on PostgreSQL (``bench_import_bounds`` unless ``DATABASE_URL`` names one); the preview and the confirmation go
through the admin's own upload flow (``DealsUpload.read``), without the HTTP layer.

    python -m bench import_bounds
"""

from __future__ import annotations

import io
import random
import time
import zipfile

from bench._postgres import setup_django

#: A request should answer well within a proxy's usual 60 s.
TARGET_PREVIEW = 30.0
TARGET_REFUSAL = 1.0
FILE_BYTES = 2 * 1024 * 1024


def _deals_csv(player_ids: list[int], target: int = FILE_BYTES) -> bytes:
    rnd = random.Random(13)
    lines = ["game;date;deal;player_id;whists"]
    size = len(lines[0]) + 1
    game = 0
    while size < target:
        game += 1
        table = rnd.sample(player_ids, 3)
        for deal in range(1, 21):
            a, b = rnd.randint(-20, 20), rnd.randint(-20, 20)
            for pid, whists in zip(table, (a, b, -a - b), strict=True):
                line = f"bench-{game};2026-03-07;{deal};{pid};{whists}"
                lines.append(line)
                size += len(line) + 1
    return ("\n".join(lines) + "\n").encode()


def _bomb() -> bytes:
    import openpyxl

    from federation import bounds

    workbook = openpyxl.Workbook()
    workbook.active.append(["place", "player_id"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    source = zipfile.ZipFile(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            if item.filename != "xl/sharedStrings.xml":
                target.writestr(item, source.read(item.filename))
        target.writestr(
            "xl/sharedStrings.xml",
            b"<sst><si><t>" + b"a" * (10 * bounds.XLSX_MAX_UNCOMPRESSED_BYTES) + b"</t></si></sst>",
        )
    return out.getvalue()


def run() -> list[dict]:
    setup_django("bench_import_bounds")
    from django.db import connection

    from federation.models import Player
    from federation.uploads import ImportFileError
    from ratings.preferans.admin import DealsUpload
    from ratings.preferans.models import Deal, DealResult, Game, PreferansRating, Seat
    from tournaments.importing import table_read

    with connection.cursor() as cursor:
        tables = [m._meta.db_table for m in (DealResult, Deal, Seat, Game, PreferansRating, Player)]
        cursor.execute("TRUNCATE " + ", ".join(tables) + " RESTART IDENTITY CASCADE")
    players = Player.objects.bulk_create(
        Player(last_name=f"Игрок{n}", first_name="Иван", city="Москва") for n in range(300)
    )
    content = _deals_csv([p.pk for p in players])
    flow = DealsUpload.__new__(DealsUpload)
    rows = []
    started = time.perf_counter()
    checked = flow.read(content, "deals.csv", save=False)
    preview = time.perf_counter() - started
    deals = checked.context.get("deal_count", 0)
    rows.append(
        {
            "name": "admin: preview of a 2 MB preferans deals CSV",
            "seconds": round(preview, 2),
            "target": TARGET_PREVIEW,
            "detail": f"{len(content):,} bytes, {deals:,} deals rated and rolled back, "
            f"{len(checked.context.get('preview', []))} listed; errors: {checked.context.get('errors', [])[:1]}",
        }
    )
    started = time.perf_counter()
    checked = flow.read(content, "deals.csv", save=True)
    confirm = time.perf_counter() - started
    rows.append(
        {
            "name": "admin: confirmation of the same file",
            "seconds": round(confirm, 2),
            "target": TARGET_PREVIEW,
            "detail": f"{Deal.objects.count():,} deals stored; {checked.saved}",
        }
    )
    for name, data, filename in (
        ("results import: XLSX bomb (200 MB string) refused", _bomb(), "results.xlsx"),
        ("results import: 1,000,000-line CSV refused", b"place;player_id\n" + b"1;2\n" * 1_000_000, "results.csv"),
    ):
        started = time.perf_counter()
        try:
            table_read(content=data, filename=filename)
            outcome = "ACCEPTED"
        except ImportFileError as error:
            outcome = error.message
        rows.append(
            {
                "name": name,
                "seconds": round(time.perf_counter() - started, 4),
                "target": TARGET_REFUSAL,
                "detail": f"{len(data):,} bytes: {outcome}",
            }
        )
    return rows
