from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ratings.jobs import JOBS, job_again, job_label, job_refresh, job_summary
from ratings.models import JobRun, JobState


class Command(BaseCommand):
    help = (
        "The long jobs' runs (publish, rebuild, the nightly computation): the latest with what each did; --check "
        "marks the lost ones (their worker stopped, or none took them); --again ID queues a failed or lost run "
        "again. The jobs themselves run by hand with gorbunov_publish, mahjong_daily and mahjong_rebuild."
    )

    def add_arguments(self, parser):
        parser.add_argument("--last", type=int, default=20, help="how many runs to list (default 20)")
        parser.add_argument("--check", action="store_true", help="mark runs whose worker went silent as lost")
        parser.add_argument("--again", type=int, metavar="ID", help="run a failed or lost run again")

    def handle(self, *args, last=20, check=False, again=None, **options):
        if check:
            job_refresh(JobRun.objects.filter(state__in=[JobState.QUEUED, JobState.RUNNING]))
        if again is not None:
            run = JobRun.objects.filter(pk=again).first()
            if run is None or run.kind not in JOBS:
                raise CommandError(f"no job run {again}")
            if run.state not in (JobState.FAILED, JobState.LOST):
                raise CommandError(f"run {again} is {run.state}; only a failed or lost run is run again")
            new = job_again(run=run, user=None)
            self.stdout.write(f"run {new.pk}: {new.get_state_display()} — {job_summary(new)}")
            return
        for run in JobRun.objects.select_related("started_by")[: max(1, last)]:
            who = run.started_by.get_username() if run.started_by_id else run.get_source_display()
            when = timezone.localtime(run.created_at).strftime("%Y-%m-%d %H:%M")
            self.stdout.write(
                f"{run.pk}\t{when}\t{job_label(run.kind)}\t{who}\t{run.get_state_display()}\t{job_summary(run)}"
            )
