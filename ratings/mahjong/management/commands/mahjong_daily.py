import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ratings.jobs import job_run_here
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
        day = today or timezone.localdate()
        run = job_run_here(
            kind="mahjong_daily", args=[day.isoformat()], call=lambda progress: services.mahjong_daily(today=day)
        )
        for slug, state in run.outcome.items():
            self.stdout.write(f"{slug}: {state}")
