"""``python manage.py import_history FILE|-``: load a federation's history from a ``manage.py rate`` document."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from ratings.engines.common import EngineError
from ratings.history import HistoryError, history_check, history_import
from ratings.rate import parse_document


class ImportCommand(BaseCommand):
    """What the history imports' commands share: progress lines and errors on standard error, exit status 1."""

    def _progress(self, done: int, total: int, step: str) -> None:
        self.stderr.write(f"{done}/{total} {step}")

    def _fail(self, lines: list[str]) -> None:
        """Every error on its own line on standard error, exit status 1, nothing saved."""
        for line in lines:
            self.stderr.write(line.replace("\n", " "))
        raise SystemExit(1)


class Command(ImportCommand):
    help = (
        "Import a history document (the format of manage.py rate, docs/rate-cli.md): players, starting ratings, "
        "tournaments and results; the whole file is checked first and nothing is saved if anything is wrong."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to a JSON document, or - for standard input")
        parser.add_argument("--list", dest="list_slug", help="the rating list (slug); default: the system's own")
        parser.add_argument("--check", action="store_true", help="only check the document and print the counts")

    def handle(self, *args, **options):
        try:
            text = sys.stdin.read() if options["file"] == "-" else Path(options["file"]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            self._fail([f"file: cannot read {options['file']!r} ({error.__class__.__name__})"])
        try:
            doc = parse_document(text)
            if options["check"]:
                counts = history_check(doc=doc, list_slug=options["list_slug"])
                self.stdout.write(json.dumps(counts, ensure_ascii=False))
                return
            report = history_import(doc=doc, list_slug=options["list_slug"], progress=self._progress)
        except EngineError as error:
            self._fail([str(error)])
        except HistoryError as error:
            self._fail(error.lines())
        except RecursionError:
            self._fail(["input: nested too deeply"])
        self.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False))
