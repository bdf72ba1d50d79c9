"""``python manage.py rate FILE|-``: run a rating engine on a JSON document (``RATE_CLI.md``), touching no table."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from ratings.engines.common import EngineError
from ratings.rate import parse_document, rate


class Command(BaseCommand):
    help = "Rate a JSON document with the site's engines, without the database (RATE_CLI.md)."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to a JSON document, or - for standard input")
        parser.add_argument("--indent", type=int, default=None, help="pretty-print the output")

    def handle(self, *args, **options):
        try:
            text = sys.stdin.read() if options["file"] == "-" else Path(options["file"]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            self._fail(f"file: cannot read {options['file']!r} ({error.__class__.__name__})")
        try:
            result = rate(parse_document(text))
        except EngineError as error:
            self._fail(str(error))
        except RecursionError:
            self._fail("input: nested too deeply")
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=options["indent"]))

    def _fail(self, line: str) -> None:
        """One line on standard error, exit status 1, never a traceback (RATE_CLI.md)."""
        self.stderr.write(line.replace("\n", " "))
        raise SystemExit(1)
