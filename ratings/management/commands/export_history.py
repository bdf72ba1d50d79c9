"""``python manage.py export_history SYSTEM``: the site's history as a ``manage.py rate`` document."""

import json

from django.core.management.base import BaseCommand

from ratings.history import SYSTEMS, HistoryError, history_export


class Command(BaseCommand):
    help = "Write the site's history of one rating system as a document of manage.py rate (docs/rate-cli.md)."

    def add_arguments(self, parser):
        parser.add_argument("system", choices=sorted(SYSTEMS))
        parser.add_argument("--list", dest="list_slug", help="the rating list (slug); default: the system's own")
        parser.add_argument(
            "--tournament", help="selfhandicap: the tournament's id (default: the newest finished tournament)"
        )
        parser.add_argument("--indent", type=int, default=None, help="pretty-print the output")

    def handle(self, *args, **options):
        try:
            doc = history_export(
                system=options["system"], list_slug=options["list_slug"], tournament=options["tournament"]
            )
        except HistoryError as error:
            for line in error.lines():
                self.stderr.write(line)
            raise SystemExit(1) from None
        self.stdout.write(json.dumps(doc, ensure_ascii=False, indent=options["indent"]))
