"""``manage.py backup``: a backup now, recorded as a job run like the nightly one; ``--list`` shows those kept."""

from django.core.management.base import BaseCommand
from django.template.defaultfilters import filesizeformat
from django.utils import timezone

from federation.backups import services
from ratings.jobs import job_run_here, job_summary


class Command(BaseCommand):
    help = "Back up the database now (as the nightly job does) and keep the newest DJANGO_BACKUP_KEEP backups."

    def add_arguments(self, parser):
        parser.add_argument(
            "--list", action="store_true", dest="show_list", help="list the backups kept, newest first, and stop"
        )

    def handle(self, *args, show_list=False, **options):
        if show_list:
            for row in services.backup_list():
                when = timezone.localtime(row["modified"]).strftime("%Y-%m-%d %H:%M")
                self.stdout.write(f"{when}  {filesizeformat(row['bytes']):>10}  {row['path']}")
            return
        run = job_run_here(kind="backup", args=[], call=lambda progress: services.backup_create())
        self.stdout.write(job_summary(run))
