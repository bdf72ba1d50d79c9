import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from ratings.gorbunov import services
from ratings.gorbunov.jobs import publication_outcome
from ratings.jobs import job_run_here, job_summary
from ratings.models import Engine, RatingList


class Command(BaseCommand):
    help = "Publish (or with --rebuild, rebuild) Gorbunov rating lists; all active ones unless --list SLUG is given."

    def add_arguments(self, parser):
        parser.add_argument("--list", dest="slug", help="the list's slug")
        parser.add_argument("--week", help="publish up to the rating week of this date (YYYY-MM-DD)")
        parser.add_argument("--rebuild", action="store_true", help="recompute the whole history")
        parser.add_argument("--setup", action="store_true", help="create the default lists and the beat schedule")

    def handle(self, *args, slug=None, week=None, rebuild=False, setup=False, **options):
        if setup:
            services.gorbunov_setup_defaults()
        lists = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True)
        if slug:
            lists = RatingList.objects.filter(engine=Engine.GORBUNOV, slug=slug)
            if not lists.exists():
                raise CommandError(f"no Gorbunov list {slug!r}")
        try:
            day = dt.date.fromisoformat(week) if week else None
        except ValueError:
            raise CommandError(f"--week {week!r} is not a date") from None
        for rating_list in lists:
            pk = rating_list.pk
            if rebuild:
                run = job_run_here(
                    kind="gorbunov_rebuild",
                    args=[pk],
                    call=lambda progress, pk=pk: publication_outcome(
                        services.gorbunov_rebuild(rating_list_id=pk, progress=progress).as_dict()
                    ),
                )
            else:
                run = job_run_here(
                    kind="gorbunov_publish",
                    args=[pk, day.isoformat()] if day else [pk],
                    call=lambda progress, pk=pk: publication_outcome(
                        services.gorbunov_publish(rating_list_id=pk, week=day, progress=progress).as_dict()
                    ),
                )
            self.stdout.write(f"{rating_list.slug}: {run.outcome.get('status')} — {job_summary(run)}")
