"""``python manage.py import_spreadsheet --tournaments T.csv --results R.csv [--players P.csv] [--system S]``: a
Gorbunov or mahjong history kept in spreadsheets, loaded by the same services as ``import_history``
(``ratings.spreadsheet``)."""

import json
from pathlib import Path

from ratings.engines.common import EngineError
from ratings.history import HistoryError, history_check, history_import
from ratings.management.commands.import_history import ImportCommand
from ratings.spreadsheet import document_error, mahjong_spreadsheet_document, spreadsheet_document

MAHJONG = ("mahjong-rr", "mahjong-crr", "mahjong-online")


class Command(ImportCommand):
    help = (
        "Import a Gorbunov or mahjong history from CSV or XLSX tables of players, tournaments and results (README: "
        "'The spreadsheet path'); every error is named by file, row and column, and nothing is saved while any is left."
    )

    def add_arguments(self, parser):
        parser.add_argument("--system", default="gorbunov", choices=("gorbunov", *MAHJONG), help="default: gorbunov")
        parser.add_argument("--players", help="players table: id, name, name_latin, city, club, country, rating")
        parser.add_argument(
            "--tournaments",
            required=True,
            help="tournaments table: id, date, k, format, name, city (mahjong: id, end_date, players, hanchans, "
            "stages, country, name, city and the flags)",
        )
        parser.add_argument(
            "--results", required=True, help="results table: tournament, player, place (mahjong: and hanchans)"
        )
        parser.add_argument("--country", default="RU", help="mahjong: the federation's country (default RU)")
        parser.add_argument("--ratings-date", dest="ratings_date", help="date of the federation's list (YYYY-MM-DD)")
        parser.add_argument("--list", dest="list_slug", help="the rating list (slug); default: the system's own")
        parser.add_argument("--check", action="store_true", help="only check the tables and print the counts")

    def handle(self, *args, **options):
        files = {}
        for key in ("players", "tournaments", "results"):
            if options[key]:
                path = Path(options[key])
                try:
                    files[key] = (path.read_bytes(), path.name)
                except OSError as error:
                    self._fail([f"{path}: cannot read ({error.__class__.__name__})"])
        where: dict[str, str] = {}
        try:
            if options["system"] in MAHJONG:
                doc, where = mahjong_spreadsheet_document(
                    system=options["system"],
                    players=files.get("players"),
                    tournaments=files["tournaments"],
                    results=files["results"],
                    country=options["country"],
                )
            else:
                doc, where = spreadsheet_document(
                    players=files.get("players"),
                    tournaments=files["tournaments"],
                    results=files["results"],
                    ratings_date=options["ratings_date"],
                )
            if options["check"]:
                counts = history_check(doc=doc, list_slug=options["list_slug"])
                self.stdout.write(json.dumps(counts, ensure_ascii=False))
                return
            report = history_import(doc=doc, list_slug=options["list_slug"], progress=self._progress)
        except HistoryError as error:
            self._fail([document_error(e, where) for e in error.errors])
        except EngineError as error:
            self._fail([document_error(error, where)])
        self.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False))
