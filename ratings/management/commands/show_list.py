"""``python manage.py show_list SYSTEM [--as-of DATE] [--tournament ID]``: what the site has published, as
``manage.py rate`` prints it for the same history (docs/rate-cli.md); for ``selfhandicap``, a tournament's standings
(``--tournament``, default: the newest finished tournament)."""

import datetime as dt
import json

from django.core.management.base import BaseCommand, CommandError

from ratings.history import SYSTEMS, HistoryError, list_document


class Command(BaseCommand):
    help = "Print a published list (as of a date, or the newest) as the JSON document manage.py rate prints."

    def add_arguments(self, parser):
        parser.add_argument("system", choices=sorted(SYSTEMS))
        parser.add_argument("--as-of", dest="as_of", help="YYYY-MM-DD: the list in force that day (default: newest)")
        parser.add_argument("--list", dest="list_slug", help="the rating list (slug); default: the system's own")
        parser.add_argument(
            "--tournament", help="selfhandicap: the tournament's id (default: the newest finished tournament)"
        )
        parser.add_argument("--indent", type=int, default=None, help="pretty-print the output")

    def handle(self, *args, **options):
        as_of = None
        if options["as_of"]:
            try:
                as_of = dt.date.fromisoformat(options["as_of"])
            except ValueError:
                raise CommandError(f"--as-of: {options['as_of']!r} is not a date (YYYY-MM-DD)") from None
        try:
            doc = list_document(
                system=options["system"], list_slug=options["list_slug"], as_of=as_of, tournament=options["tournament"]
            )
        except HistoryError as error:
            raise CommandError("; ".join(error.lines())) from None
        self.stdout.write(json.dumps(doc, ensure_ascii=False, indent=options["indent"]))
