"""The demo federation, made in one transaction: people, tournaments, then every rating fed through its services.

Nothing here writes a rating row itself: Gorbunov lists are published by ``gorbunov_publish``, mahjong snapshots by
``mahjong_daily`` and ``mahjong_rebuild``, Go rounds are paired, published and scored by the Go services (which also
rate DIRS games), and preferans deals go through ``deals_import_bulk``. Two runs with the same options give the same
names, tournaments, places and ratings (only database ids and creation timestamps differ).
"""

from __future__ import annotations

import datetime
import logging
import time
from collections.abc import Callable

from django.db import transaction
from django.test.utils import override_settings

from federation.demo import calendar, go, lists, people, preferans, tournaments
from federation.demo.base import DemoReport, Federation, Feed, Say
from federation.models import Club, Player
from federation.services import player_tournament_counts_refresh
from ratings.dirs.models import DirsGame, DirsRating
from ratings.models import RatingChange, RatingEntry, RatingSnapshot
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat
from tournaments.go.models import Absence, Board, Bye, GoTournament, Registration, Round, StandingRow
from tournaments.models import Registration as TournamentRegistration
from tournaments.models import Result, Stage, Tournament

logger = logging.getLogger(__name__)

DEFAULT_SEED = 2026
#: A fixed "today": the demo must not depend on the day it is generated.
DEFAULT_TODAY = datetime.date(2026, 11, 30)
DEFAULT_PLAYERS = 600
DEFAULT_YEARS = 3


def demo_data_exists() -> bool:
    return Player.objects.exists() or Tournament.objects.exists() or Club.objects.exists()


def demo_data_create(
    *,
    seed: int = DEFAULT_SEED,
    today: datetime.date = DEFAULT_TODAY,
    players: int = DEFAULT_PLAYERS,
    years: int = DEFAULT_YEARS,
    reset: bool = False,
    progress: Say | None = None,
) -> DemoReport:
    """Fill the database with the demo federation; without ``reset`` a database that has data is left alone.

    Either way the report names the demo logins that still sign in, so a second ``make run`` shows them again.
    """
    say = progress or logger.info
    with transaction.atomic():
        if demo_data_exists():
            if not reset:
                return DemoReport(created=False, logins=people.demo_logins())
            _delete_all(say)
        demo = Federation(seed=seed, today=today, players=players, years=years, say=say)
        people.demo_users_create(demo)
        people.clubs_create(demo)
        people.players_create(demo)
        people.bots_create(demo)
        drafts = [
            *tournaments.card_game_tournaments(demo),
            *tournaments.mahjong_tournaments(demo),
            *go.go_tournaments(demo),
            *preferans.preferans_tournaments(demo),
        ]
        tournaments.statuses_set(demo, drafts)
        tournaments.tournaments_save(demo, drafts)
        feed = Feed(demo)
        _step(say, "Gorbunov", lists.gorbunov_lists_publish, feed)
        _step(say, "Mahjong", lists.mahjong_lists_compute, feed)
        _step(say, "Go DIRS club rating", go.dirs_club_games, feed)
        _step(say, "Go tournaments", go.go_tournaments_run, feed)
        _step(say, "Preferans", preferans.preferans_games_play, feed)
        _step(say, "Season ahead", lambda _feed: calendar.season_ahead(demo), feed)
        player_tournament_counts_refresh()
    return demo.report


def _step(say: Say, title: str, work: Callable[[Feed], str], feed: Feed) -> None:
    started = time.perf_counter()
    detail = work(feed)
    say(f"{title}: {detail} ({time.perf_counter() - started:.1f} s).")


def _delete_all(say: Say) -> None:
    """Everything the demo makes, in an order the PROTECT foreign keys allow (ratings before tournaments and players).

    Turning history off skips one history row per deleted object: a reset of demo data need not be audited.
    """
    with override_settings(SIMPLE_HISTORY_ENABLED=False):
        for model in (
            RatingChange,
            RatingEntry,
            RatingSnapshot,
            DirsGame,
            DirsRating,
            StandingRow,
            Bye,
            Board,
            Round,
            Absence,
            Registration,
            GoTournament,
            DealResult,
            Deal,
            Seat,
            Game,
            GameServer,
            PreferansRating,
            Result,
            Stage,
            TournamentRegistration,
            Tournament,
            Player,
            Club,
        ):
            model.objects.all().delete()
    say(
        "Deleted rating snapshots and changes, Go rounds and DIRS data, preferans games, tournaments, results, players "
        "and clubs."
    )
