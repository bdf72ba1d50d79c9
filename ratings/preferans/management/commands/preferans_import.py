"""Import a long history of preferans deals from a CSV file, in batches of one transaction each.

    python manage.py preferans_import deals.csv [--batch 100000] [--dry-run]

The file has the admin import's columns (``game;date;deal;player_id;whists``, one row per player per deal, the deals
in the order they were played; see ``ratings/preferans/importing.py``). The whole file is checked before anything
is written: every error is printed with its row and field, and nothing is saved. The deals are then rated and stored
by ``deals_import_bulk``, in batches of about ``--batch`` deals, each batch cut where no game is still open, so that
all of a game's deals are stored together. A line per batch shows the progress.

Decisions where the rules are silent:

- Every game of the file must be new. A game already stored is refused (its first row is named): its further deals
  go through the admin's import or the game server's API, which continue a stored game.
- A game's table is the players of its first deal; each later deal names them, or 2 or more of them when a player
  has left the game (``RATE_CLI.md``: a later deal "may lack a player who left, never add one").
- A game without a date is dated at noon of the import's day, as in the admin's import.
- The tables' statistics are refreshed at the end (``ANALYZE``), so that the pages and the game servers' deals are
  planned for the tables' new sizes at once.
- If a batch fails after the check (say a player was deleted meanwhile), the batches before it stay stored, and the
  message says which games they hold; that batch and the ones after it are not.
"""

from __future__ import annotations

import datetime
import gc
import sys
import time
from dataclasses import dataclass, field

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from federation.models import Player
from federation.uploads import ImportFileError
from ratings.preferans.importing import ParsedDeal, RowError, deals_parse
from ratings.preferans.models import Game
from ratings.preferans.services import (
    MAX_TABLE,
    MIN_TABLE,
    BulkDeal,
    BulkGame,
    PreferansError,
    analyze_after_import,
    deals_import_bulk,
)

#: Errors printed in full; the rest are counted.
SHOWN_ERRORS = 50
#: Game keys looked up per query when checking that the games are new.
LOOKUP_CHUNK = 10_000


@dataclass
class _GamePlan:
    key: str
    table: tuple[int, ...]
    first_row: int
    played_at: datetime.datetime
    last_deal: int = 0
    seated: frozenset[int] = field(init=False)

    def __post_init__(self) -> None:
        self.seated = frozenset(self.table)


def check_file(deals: list[ParsedDeal]) -> tuple[dict[str, _GamePlan], list[RowError]]:
    """Every game's table and date, and every error of the parsed deals that the bulk import would refuse."""
    games: dict[str, _GamePlan] = {}
    errors: list[RowError] = []
    noon = timezone.make_aware(datetime.datetime.combine(timezone.localdate(), datetime.time(12)))
    for index, deal in enumerate(deals):
        row = deal.rows[0]
        plan = games.get(deal.game)
        if plan is None:
            played_at = noon
            if deal.date:
                played_at = timezone.make_aware(datetime.datetime.combine(deal.date, datetime.time(12)))
            plan = games[deal.game] = _GamePlan(deal.game, tuple(deal.whists), row, played_at)
            if not MIN_TABLE <= len(plan.table) <= MAX_TABLE:
                message = _("a table has 2 to 4 players, game “%(game)s” has %(count)s")
                errors.append(RowError(row, "player_id", message % {"game": deal.game, "count": len(plan.table)}))
        elif not deal.whists.keys() <= plan.seated or len(deal.whists) < MIN_TABLE:
            message = _("the players are not 2 or more of the table of game “%(game)s” (its first deal, row %(row)s)")
            errors.append(RowError(row, "player_id", message % {"game": deal.game, "row": plan.first_row}))
        plan.last_deal = index
        total = sum(deal.whists.values())
        if total:
            message = _("the whists of deal “%(deal)s” sum to %(total)s, not to zero")
            errors.append(RowError(row, "whists", message % {"deal": deal.deal, "total": total}))

    player_ids = {pid for plan in games.values() for pid in plan.table}
    known = set(Player.objects.filter(pk__in=list(player_ids)).values_list("pk", flat=True))
    if player_ids - known:
        first_row_of: dict[int, int] = {}
        for deal in deals:
            for pid, row in zip(deal.whists, deal.rows, strict=True):
                first_row_of.setdefault(pid, row)
        for pid in sorted(player_ids - known, key=first_row_of.get):
            errors.append(RowError(first_row_of[pid], "player_id", _("no player has the id %(id)s") % {"id": pid}))

    keys = list(games)
    for start in range(0, len(keys), LOOKUP_CHUNK):
        stored = Game.objects.filter(server__isnull=True, external_id__in=keys[start : start + LOOKUP_CHUNK])
        for key in stored.values_list("external_id", flat=True):
            message = _("game “%(game)s” is already stored: add its deals in the admin")
            errors.append(RowError(games[key].first_row, "game", message % {"game": key}))
    errors.sort(key=lambda error: error.row)
    return games, errors


def batches(deals: list[ParsedDeal], games: dict[str, _GamePlan], size: int):
    """The deals in batches of at least ``size`` (but the last), each cut where every game begun is over."""
    batch: list[ParsedDeal] = []
    open_games: set[str] = set()
    for index, deal in enumerate(deals):
        batch.append(deal)
        open_games.add(deal.game)
        if games[deal.game].last_deal == index:
            open_games.discard(deal.game)
        if len(batch) >= size and not open_games:
            yield batch
            batch = []
    if batch:
        yield batch


class Command(BaseCommand):
    @property
    def help(self) -> str:
        # A plain string in the active language: argparse's description takes no lazy text.
        return _(
            "Import a long history of preferans deals from a CSV file (game;date;deal;player_id;whists), in batches."
        )

    def add_arguments(self, parser):
        parser.add_argument("file", help=gettext_lazy("the CSV file, or - for standard input"))
        parser.add_argument(
            "--batch", type=int, default=100_000, help=gettext_lazy("deals per batch, about (default 100000)")
        )
        parser.add_argument(
            "--dry-run", action="store_true", help=gettext_lazy("check the file and show the batches, save nothing")
        )

    def handle(self, *args, **options):
        try:
            self._import(options["file"], options["batch"], options["dry_run"])
        finally:
            gc.unfreeze()  # what was set aside can be collected again (this matters when called in a process)

    def _import(self, file: str, batch: int, dry_run: bool) -> None:
        if batch < 1:
            raise CommandError(_("--batch must be a positive number of deals"))
        started = time.perf_counter()
        name = "stdin" if file == "-" else file
        try:
            if file == "-":
                content = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as handle:
                    content = handle.read()
        except OSError as error:
            raise CommandError(_("cannot read %(file)s: %(error)s") % {"file": file, "error": error.strerror}) from None
        # A million deals are millions of objects that live until the end: the cyclic garbage collector would walk
        # them again and again (a quarter of the parsing time, a fifth of each batch's), so it is off while they are
        # built and they are set aside (``gc.freeze``) before the batches.
        gc.disable()
        try:
            parsed = deals_parse(content)
            errors = list(parsed.errors)
            games, more = check_file(parsed.deals) if not errors else ({}, [])
        except ImportFileError as error:
            raise CommandError(f"{name}: {error.message}") from None
        finally:
            del content
            gc.freeze()
            gc.enable()
        errors += more
        if errors:
            for error in errors[:SHOWN_ERRORS]:
                self.stderr.write(
                    _("row %(row)s, %(field)s: %(message)s")
                    % {"row": error.row, "field": error.field, "message": error.message}
                )
            if len(errors) > SHOWN_ERRORS:
                self.stderr.write(_("… and %(count)s more errors") % {"count": len(errors) - SHOWN_ERRORS})
            message = ngettext(
                "%(count)s error in %(file)s; nothing was imported",
                "%(count)s errors in %(file)s; nothing was imported",
                len(errors),
            )
            raise CommandError(message % {"count": len(errors), "file": name})
        if not parsed.deals:
            raise CommandError(_("%(file)s has no deals") % {"file": name})
        planned = list(batches(parsed.deals, games, batch))
        self.stdout.write(
            _("%(file)s: %(deals)s deals of %(games)s games, checked in %(seconds).1f s; %(batches)s batches")
            % {
                "file": name,
                "deals": len(parsed.deals),
                "games": len(games),
                "seconds": time.perf_counter() - started,
                "batches": len(planned),
            }
        )
        if dry_run:
            self.stdout.write(_("dry run: nothing was saved"))
            return
        stored_games = stored_deals = 0
        for number, deals in enumerate(planned, start=1):
            keys = list(dict.fromkeys(deal.game for deal in deals))
            batch_started = time.perf_counter()
            try:
                report = deals_import_bulk(
                    games=[BulkGame(key=k, player_ids=games[k].table, played_at=games[k].played_at) for k in keys],
                    deals=[BulkDeal(game=d.game, whists=d.whists, external_id=d.deal) for d in deals],
                )
            except (PreferansError, DatabaseError) as error:
                done = _("nothing was stored")
                if number > 1:
                    done = _(
                        "batches 1 to %(last)s are stored (%(deals)s deals, %(games)s games, up to game “%(game)s”)"
                    ) % {
                        "last": number - 1,
                        "deals": stored_deals,
                        "games": stored_games,
                        "game": planned[number - 2][-1].game,
                    }
                message = _("batch %(number)s (from row %(row)s) failed: %(error)s; %(stored)s")
                raise CommandError(
                    message % {"number": number, "row": deals[0].rows[0], "error": error, "stored": done}
                ) from None
            stored_games += report.games
            stored_deals += report.deals
            self.stdout.write(
                _(
                    "batch %(number)s/%(total)s: %(deals)s deals, %(games)s games, %(seconds).1f s "
                    "(%(stored)s of %(all)s deals stored)"
                )
                % {
                    "number": number,
                    "total": len(planned),
                    "deals": report.deals,
                    "games": report.games,
                    "seconds": time.perf_counter() - batch_started,
                    "stored": stored_deals,
                    "all": len(parsed.deals),
                }
            )
        analyze_after_import()
        self.stdout.write(
            _("imported %(deals)s deals of %(games)s games in %(seconds).1f s")
            % {"deals": stored_deals, "games": stored_games, "seconds": time.perf_counter() - started}
        )
