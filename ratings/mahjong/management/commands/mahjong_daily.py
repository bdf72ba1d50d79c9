import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from ratings.mahjong import services


class Command(BaseCommand):
    help = (
        "Compute today's RR, CRR and online lists, each only if its input changed (the nightly job, by hand when "
        "Celery is down)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", help="compute as of this date instead of today (YYYY-MM-DD)")

    def handle(self, *args, date=None, **options):
        try:
            today = dt.date.fromisoformat(date) if date else None
        except ValueError:
            raise CommandError(f"--date {date!r} is not a date (YYYY-MM-DD)") from None
        for slug, state in services.mahjong_daily(today=today).items():
            self.stdout.write(f"{slug}: {state}")
