import datetime as dt

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ratings.jobs import job_run_here
from ratings.mahjong import services
from ratings.mahjong.selectors import mahjong_lists


def _date(option: str, value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"{option} {value!r} is not a date (YYYY-MM-DD)") from None


class Command(BaseCommand):
    help = (
        "Rebuild the mahjong lists' snapshots from --from to --to: a snapshot on each date where a list's input "
        "changed, none on the other dates of the range. All active lists unless --list SLUG is given."
    )

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="start", required=True, help="the first date (YYYY-MM-DD)")
        parser.add_argument("--to", dest="end", required=True, help="the last date (YYYY-MM-DD)")
        parser.add_argument("--list", dest="slugs", action="append", default=[], help="a list's slug (repeatable)")

    def handle(self, *args, start, end, slugs, **options):
        first, last = _date("--from", start), _date("--to", end)
        lists = mahjong_lists(active_only=not slugs).order_by("pk")
        if slugs:
            lists = lists.filter(slug__in=slugs)
            unknown = sorted(set(slugs) - set(lists.values_list("slug", flat=True)))
            if unknown:
                raise CommandError(f"no mahjong list {', '.join(map(repr, unknown))}")

        def report(done: int, total: int, step: str = "") -> None:
            if done == total or done % 30 == 0:
                self.stdout.write(f"{done}/{total} {step}")

        ids = list(lists.values_list("pk", flat=True))

        def call(progress):
            def both(done: int, total: int, step: str = "") -> None:
                progress(done, total, step)
                report(done, total, step)

            return services.mahjong_rebuild(
                rating_lists=lists, start=first, end=last, progress=both, written=progress.written
            )

        try:
            run = job_run_here(kind="mahjong_rebuild", args=[ids, first.isoformat(), last.isoformat()], call=call)
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from None
        written = run.outcome
        by_slug = {rating_list.slug: rating_list for rating_list in lists}
        for slug, count in written.items():
            line = f"{slug}: {count} snapshots written"
            since = services.mahjong_unchanged_since(rating_list=by_slug[slug], day=first) if first == last else None
            if not count and since is not None:
                # Issue 29: a date on which nothing changed is not a change date; the list in force is an earlier one.
                line += (
                    f" (unchanged since {since.isoformat()}: the list in force on {first.isoformat()} is that date's)"
                )
            self.stdout.write(line)
