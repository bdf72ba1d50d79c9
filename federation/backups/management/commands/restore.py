"""``manage.py restore [FILE]``: replace the whole database with a backup (the newest by default), then migrate."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from federation.backups import services


class Command(BaseCommand):
    help = (
        "Replace the whole database with a backup (default: the newest in DJANGO_BACKUP_DIR) and migrate it to this "
        "version of the code. Stop the web, worker and beat first, and start them after."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", type=Path, help="the backup file (default: the newest kept)")
        parser.add_argument("--noinput", action="store_false", dest="interactive", help="do not ask to confirm")

    def handle(self, *args, file=None, interactive=True, **options):
        if file is None:
            kept = services.backup_list()
            if not kept:
                raise CommandError(f"No backup in {settings.BACKUP_DIR}.")
            file = kept[0]["path"]
        database = connection.settings_dict["NAME"]
        if interactive:
            answer = input(f"Replace everything in the database {database} with the backup {file}? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                raise CommandError("Nothing was changed.")
        try:
            restored = services.backup_restore(path=file)
        except services.RestoreError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Restored {restored} into the database {database} and migrated it.")
