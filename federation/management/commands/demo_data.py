"""``manage.py demo_data``: fill the local database with a believable federation (``federation.demo``)."""

import datetime

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from federation import demo


class Command(BaseCommand):
    help = "Fill the local database with demo players, clubs, tournaments and users (deterministic)."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=demo.DEFAULT_SEED, help="random seed (default %(default)s)")
        parser.add_argument(
            "--today",
            type=datetime.date.fromisoformat,
            default=demo.DEFAULT_TODAY,
            help="the anchor date, YYYY-MM-DD (default %(default)s, fixed so the data does not depend on the day)",
        )
        parser.add_argument("--players", type=int, default=demo.DEFAULT_PLAYERS, help="default %(default)s")
        parser.add_argument(
            "--years", type=int, default=demo.DEFAULT_YEARS, help="years of tournaments (default %(default)s)"
        )
        parser.add_argument("--reset", action="store_true", help="delete tournaments, results, players and clubs first")
        parser.add_argument(
            "--force", action="store_true", help="run even with DEBUG off (the demo users have known passwords)"
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "demo_data creates users with known passwords and is meant for the local site (DEBUG on); "
                "pass --force to run it anyway."
            )
        if options["players"] < 20 or options["years"] < 1:
            raise CommandError("Use at least 20 players and 1 year.")
        report = demo.demo_data_create(
            seed=options["seed"],
            today=options["today"],
            players=options["players"],
            years=options["years"],
            reset=options["reset"],
            progress=self.stdout.write,
        )
        if report.created:
            counts = ", ".join(f"{name} {count}" for name, count in report.counts.items())
            self.stdout.write(self.style.SUCCESS(f"Demo data: {counts}"))
        else:
            self.stdout.write(
                "The database already has players, clubs or tournaments: nothing generated (--reset starts over)."
            )
        if not report.logins:
            self.stdout.write("No demo users in this database (--reset creates them).")
            return
        self.stdout.write("Logins for the LOCAL DEMO ONLY (never use these on a public site):")
        for username, password, role in report.logins:
            shown = password or "(password changed since, not shown)"
            self.stdout.write(f"  {username:<10} {shown:<36} {role}")
