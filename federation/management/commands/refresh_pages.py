"""``manage.py refresh_pages``: every public page and API answer is built afresh at its next request.

The services give the pages new versions when they write (``federation.versions``); a change made by hand in SQL (a
renamed player, a deleted row) does not pass through them, so run this after one."""

from django.core.management.base import BaseCommand, CommandError

from federation import versions


class Command(BaseCommand):
    help = "Give every public page and API answer a new version (after a change made by hand in the database)."

    def handle(self, *args, **options):
        if not versions.bump_all():
            raise CommandError("The cache (DJANGO_CACHE_URL) does not answer: nothing was changed; try again.")
        self.stdout.write(
            self.style.SUCCESS("Every public page and API answer will be built afresh at its next request.")
        )
