"""The demo's ratings: fed through each rating system's own services, after ``federation.demo`` saved the tournaments.

Nothing here writes a rating row itself: Gorbunov lists are published by ``gorbunov_publish``, mahjong snapshots by
``mahjong_daily`` and ``mahjong_rebuild``, Go rounds are paired, published and scored by the Go services (which also
rate DIRS games), and preferans deals go through ``deals_import_bulk``. Choices (who plays whom, who wins, the
whists of a deal) come from a ``random.Random`` of their own, seeded from the demo's seed, so the tournaments of
``federation.demo`` stay as they were and the same seed gives the same ratings.

Go pairing draws a round's seed from the system's randomness (colours); to keep the demo reproducible each round is
re-paired (``go_round_repair``) after its seed is set from the demo's generator.
"""

from __future__ import annotations

import datetime
import logging
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from federation.models import Club, Player
from ratings.dirs.models import DirsGame, DirsRating
from ratings.dirs.services import dirs_game_record, dirs_rating_set_initial
from ratings.engines import dirs
from ratings.gorbunov.services import gorbunov_publish, gorbunov_setup_defaults, publication_monday
from ratings.mahjong.selectors import MAHJONG_ENGINES, mahjong_lists
from ratings.mahjong.services import mahjong_daily, mahjong_rebuild, mahjong_setup_defaults
from ratings.models import Engine, RatingChange, RatingEntry, RatingList, RatingSnapshot
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat
from ratings.preferans.services import BulkDeal, BulkGame, deals_import_bulk, game_server_create
from tournaments.go.models import (
    Absence,
    Board,
    BoardResult,
    Bye,
    GoTournament,
    Registration,
    Round,
    StandingRow,
)
from tournaments.go.services import (
    go_registration_add,
    go_result_enter,
    go_round_pair,
    go_round_publish,
    go_round_repair,
    go_tournament_create,
)
from tournaments.models import GoSystem
from tournaments.services import ResultRow, tournament_approve, tournament_results_replace, tournament_submit

#: How far back the mahjong lists are rebuilt day by day; before that, one snapshot at the end of each month.
MAHJONG_DAILY_DAYS = 92
DIRS_PLAYERS = 60
DIRS_CLUB_GAMES = 200
DIRS_WRONG_HANDICAP = 8
PREFERANS_GAMES = 150
PREFERANS_DEALS = 20
GO_GUESTS = [("Ли Вэй", 1900), ("Park Minho", 2250), ("Tanaka Hiroshi", 1650)]


@dataclass(frozen=True)
class Member:
    """A demo player with the hidden strength that decides games and whists (``skill``, about N(0, 1))."""

    player: Player
    skill: float
    activity: float = 1.0


def ratings_demo_delete() -> None:
    """Everything this module makes, in an order the PROTECT foreign keys allow (before tournaments and players)."""
    RatingChange.objects.all().delete()
    RatingEntry.objects.all().delete()
    RatingSnapshot.objects.all().delete()
    DirsGame.objects.all().delete()
    DirsRating.objects.all().delete()
    StandingRow.objects.all().delete()
    Bye.objects.all().delete()
    Board.objects.all().delete()
    Round.objects.all().delete()
    Absence.objects.all().delete()
    Registration.objects.all().delete()
    GoTournament.objects.all().delete()
    DealResult.objects.all().delete()
    Deal.objects.all().delete()
    Seat.objects.all().delete()
    Game.objects.all().delete()
    GameServer.objects.all().delete()
    PreferansRating.objects.all().delete()


class RatingsDemo:
    def __init__(
        self,
        *,
        seed: int,
        today: datetime.date,
        start: datetime.date,
        say: Callable[[str], None],
        organiser,
        staff,
        go_members: list[Member],
        preferans_members: list[Member],
        bots: list[Player],
        counts: dict[str, int],
    ) -> None:
        self.seed = seed
        self.rng = random.Random(seed * 7919 + 17)
        self.today = today
        self.start = start
        self.say = say
        self.organiser = organiser
        self.staff = staff
        self.go_members = go_members
        self.preferans_members = preferans_members
        self.bots = bots
        self.counts = counts

    def run(self) -> None:
        self._step("Gorbunov", self._gorbunov)
        self._step("Mahjong", self._mahjong)
        self._step("Go DIRS club rating", self._dirs)
        self._step("Go tournaments", self._go_tournaments)
        self._step("Preferans", self._preferans)

    def _step(self, title: str, work: Callable[[], str]) -> None:
        started = time.perf_counter()
        detail = work()
        self.say(f"{title}: {detail} ({time.perf_counter() - started:.1f} s).")

    # --- Gorbunov and mahjong -------------------------------------------------------------------------------------

    def _gorbunov(self) -> str:
        gorbunov_setup_defaults()
        week = publication_monday(self.today)
        weeks = changes = 0
        lists = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).order_by("ordering", "pk")
        for pk in lists.values_list("pk", flat=True):
            result = gorbunov_publish(rating_list_id=pk, week=week)
            weeks += len(result.weeks)
            changes += result.changes
        self.counts.update(gorbunov_weeks=weeks, gorbunov_changes=changes)
        return f"{lists.count()} lists published up to {week}, {weeks} weekly snapshots, {changes} rating changes"

    def _mahjong(self) -> str:
        mahjong_setup_defaults()
        rebuild_from = max(self.start, self.today - datetime.timedelta(days=MAHJONG_DAILY_DAYS))
        month_ends = []
        year, month = self.start.year, self.start.month
        while True:
            following = datetime.date(year + month // 12, month % 12 + 1, 1)
            end = following - datetime.timedelta(days=1)
            if end >= rebuild_from:
                break
            month_ends.append(end)
            year, month = following.year, following.month
        chatty = logging.getLogger("ratings.mahjong.services")  # a line per list and date: the step line says it all
        level = chatty.level
        chatty.setLevel(logging.WARNING)
        try:
            for day in month_ends:
                mahjong_daily(today=day)
            written = mahjong_rebuild(rating_lists=mahjong_lists(), start=rebuild_from, end=self.today)
            mahjong_daily(today=self.today)
        finally:
            chatty.setLevel(level)
        snapshots = RatingSnapshot.objects.filter(rating_list__engine__in=MAHJONG_ENGINES)
        total = snapshots.count()
        entries = RatingEntry.objects.filter(snapshot__in=snapshots).count()
        self.counts.update(mahjong_snapshots=total, mahjong_entries=entries)
        per_list = ", ".join(f"{slug} {n}" for slug, n in written.items())
        return (
            f"month-end snapshots to {rebuild_from:%Y-%m}, then every change to {self.today} ({per_list}); "
            f"{total} snapshots, {entries} entries"
        )

    # --- Go -------------------------------------------------------------------------------------------------------

    @staticmethod
    def _rank(skill: float) -> str:
        """A declared rank from the hidden strength: about 6 kyu on average, from 20 kyu to 6 dan."""
        rating = max(10, min(260, round(150 + 45 * skill)))
        level = rating // 10
        return f"{21 - level}k" if level < 21 else f"{level - 20}d"

    def _dirs(self) -> str:
        rng = self.rng
        members = sorted(self.go_members, key=lambda m: -m.activity)[:DIRS_PLAYERS]
        members.sort(key=lambda m: m.player.pk)
        for member in members:
            dirs_rating_set_initial(player=member.player, rank=self._rank(member.skill))
        self.dirs_members = members
        if len(members) < 2:
            return f"{len(members)} ratings"
        clubs = list(Club.objects.order_by("pk"))
        games = min(DIRS_CLUB_GAMES, 4 * len(members))
        wrong = set(rng.sample(range(games), min(DIRS_WRONG_HANDICAP, games // 10)))
        first = self.today - datetime.timedelta(days=330)
        skill = {m.player.pk: m.skill for m in members}
        rated = 0
        for index in range(games):
            day = first + datetime.timedelta(days=round(index * 300 / games))
            ratings = dict(
                DirsRating.objects.filter(player__in=[m.player for m in members]).values_list("player", "rating")
            )
            a = rng.choice(members)
            near = [m for m in members if m is not a and abs(ratings[m.player.pk] - ratings[a.player.pk]) < 60]
            b = rng.choice(near or [m for m in members if m is not a])
            handicap = dirs.prescribed_handicap(ratings[a.player.pk], ratings[b.player.pk])
            if not handicap.pairable:
                continue
            white, black = (a, b) if ratings[a.player.pk] >= ratings[b.player.pk] else (b, a)
            stones, komi = handicap.stones, handicap.komi
            if index in wrong:
                stones = min(dirs.MAX_STONES, stones + 2)
            # The handicap evens the declared strength out; the hidden strength decides.
            p_white = 1 / (1 + math.exp(-1.2 * (skill[white.player.pk] - skill[black.player.pk])))
            winner = "white" if rng.random() < p_white else "black"
            club = white.player.club if white.player.club_id else (rng.choice(clubs) if clubs else None)
            game = dirs_game_record(
                date=day,
                club=club,
                white=white.player,
                black=black.player,
                handicap=stones,
                komi=komi,
                winner=winner,
                user=self.organiser,
            )
            rated += game.rated
        total = DirsGame.objects.count()
        self.counts.update(dirs_ratings=len(members), dirs_games=total)
        return f"{len(members)} ratings from declared ranks, {total} club games ({total - rated} not rated)"

    def _go_tournaments(self) -> str:
        rng = self.rng
        with_dirs = list(getattr(self, "dirs_members", []))
        pool = sorted(self.go_members, key=lambda m: m.player.pk)
        specs = [
            (GoSystem.DIRS, "Турнир клуба по DIRS, Москва", "Москва", 75, 4, min(12, len(with_dirs)), True),
            (GoSystem.PROFS, "Открытое первенство Санкт-Петербурга по го (PROFS)", "Санкт-Петербург", 45, 5, 16, False),
            (GoSystem.FUS, "Кубок «Тэнгэн» по го (FUS)", "Москва", 17, 6, 24, False),
        ]
        made = []
        boards = 0
        for system, name, city, days_ago, rounds, size, dirs_only in specs:
            if size < 4:
                continue
            end = self.today - datetime.timedelta(days=days_ago)
            fus = system == GoSystem.FUS
            go = go_tournament_create(
                user=self.organiser,
                name=name,
                start_date=end - datetime.timedelta(days=1),
                end_date=end,
                city=city,
                system=system,
                rounds=rounds,
                half_stone=fus,
                acceleration=fus,
                tiebreak=system != GoSystem.PROFS,
            )
            source = with_dirs if dirs_only else pool
            chosen = sorted(rng.sample(source, min(size, len(source))), key=lambda m: m.player.pk)
            strength: dict[int, float] = {}
            for member in chosen:
                typed = None
                if not DirsRating.objects.filter(player=member.player).exists():
                    typed = max(0, min(2899, 10 * round(150 + 45 * member.skill)))
                reg = go_registration_add(go=go, player=member.player, rating=typed)
                strength[reg.pk] = member.skill
            if not dirs_only:
                for guest, rating in GO_GUESTS[: 1 + (size >= 20)]:
                    reg = go_registration_add(go=go, name=guest, rating=rating, country="CN" if "Ли" in guest else "")
                    strength[reg.pk] = (rating - 1500) / 450 + rng.gauss(0, 0.3)
            for _number in range(rounds):
                boards += self._go_round(go, strength)
            standings = StandingRow.objects.filter(round__tournament=go, round__number=rounds).select_related(
                "registration"
            )
            rows = [
                ResultRow(
                    place=place,
                    player_id=row.registration.player_id,
                    participant_name="" if row.registration.player_id else row.registration.name,
                )
                for place, row in enumerate(standings.order_by("place", "registration_id"), start=1)
            ]
            tournament = go.tournament
            tournament_results_replace(tournament=tournament, rows=rows)
            tournament_submit(tournament=tournament, user=self.organiser)
            tournament_approve(tournament=tournament, user=self.staff)
            made.append(f"{system} {len(strength)} players {rounds} rounds")
        self.counts.update(go_rounds=Round.objects.count(), go_boards=boards)
        return f"{len(made)} run round by round ({'; '.join(made)}), {boards} boards"

    def _go_round(self, go: GoTournament, strength: dict[int, float]) -> int:
        rnd = go_round_pair(go=go, user=self.organiser)
        Round.objects.filter(pk=rnd.pk).update(seed=self.rng.randrange(2**31))
        rnd.refresh_from_db()
        go_round_repair(go_round=rnd, user=self.organiser)
        go_round_publish(go_round=rnd)
        played = list(Board.objects.filter(round=rnd).select_related("white", "black").order_by("number"))
        for board in played:
            # Each game has a generator of its own, named by the round and the two players (not by colour or board:
            # the engine draws colours from the registrations' ids, which differ between runs); the handicap evens
            # the levels out and the hidden strength decides.
            first, second = sorted([(board.white.name, board.white_id), (board.black.name, board.black_id)])
            game_rng = random.Random(f"{self.seed}:{go.tournament.name}:{rnd.number}:{first[0]}:{second[0]}")
            edge = strength[first[1]] - strength[second[1]]
            first_wins = game_rng.random() < 1 / (1 + math.exp(-1.3 * edge))
            white_wins = first_wins == (first[1] == board.white_id)
            winner = BoardResult.WHITE if white_wins else BoardResult.BLACK
            if game_rng.random() < 0.03:
                winner = BoardResult.WHITE_FORFEIT if white_wins else BoardResult.BLACK_FORFEIT
            go_result_enter(go_round=rnd, board_number=board.number, result=winner, user=self.organiser)
        return len(played)

    # --- preferans ------------------------------------------------------------------------------------------------

    def _preferans(self) -> str:
        rng = self.rng
        humans = sorted(self.preferans_members, key=lambda m: m.player.pk)
        if len(humans) < 3:
            return "too few players"
        bots = sorted(self.bots, key=lambda p: p.bot_level.max_rating)
        bot_skill = {bot.pk: (-1.5, 0.0, 1.5)[min(i, 2)] for i, bot in enumerate(bots)}
        stars = sorted(humans, key=lambda m: -m.skill)[: max(2, len(humans) // 12)]
        champions = {m.player.pk for m in stars[: max(1, len(stars) // 2)]}
        star_ids = {m.player.pk for m in stars}
        weights = [12 if m.player.pk in champions else 3 if m.player.pk in star_ids else m.activity for m in humans]
        skill = {m.player.pk: m.skill for m in humans} | bot_skill
        count = max(40, min(PREFERANS_GAMES, round(2.5 * len(humans))))
        server, _token = game_server_create(name="Локальный демо-сервер")  # the token is not shown: demo only
        first = self.today - datetime.timedelta(days=180)
        plans: list[tuple[BulkGame, list[BulkDeal], bool]] = []
        for index in range(count):
            size = rng.choice([3, 3, 3, 4])
            if bots and rng.random() < 0.25:
                human = rng.choice(stars) if rng.random() < 0.7 else rng.choice(humans)
                table = [human.player.pk] + [b.pk for b in (bots[1:] if human in stars else rng.sample(bots, 2))]
            else:
                table = []
                while len(table) < min(size, len(humans)):
                    pick = rng.choices(humans, weights)[0].player.pk
                    if pick not in table:
                        table.append(pick)
            online = rng.random() < 0.5
            moment = datetime.datetime.combine(
                first + datetime.timedelta(days=round(index * 179 / count)),
                datetime.time(rng.randrange(10, 23), rng.randrange(60)),
            )
            played_at = timezone.make_aware(moment, timezone.get_default_timezone()) if settings.USE_TZ else moment
            key = f"{'srv' if online else 'demo'}-{index + 1:04d}"
            deals = []
            for number in range(rng.randint(PREFERANS_DEALS - 4, PREFERANS_DEALS + 4)):
                raw = [rng.gauss(12.0 if pid in champions else 2.0 * skill[pid], 6.0) for pid in table]
                mean = sum(raw) / len(raw)
                whists = [round(value - mean) for value in raw]
                whists[rng.randrange(len(whists))] -= sum(whists)
                deals.append(
                    BulkDeal(game=key, whists=dict(zip(table, whists, strict=True)), external_id=f"{key}-{number + 1}")
                )
            plans.append((BulkGame(key=key, player_ids=tuple(table), played_at=played_at), deals, online))
        deals_total = 0
        # In the order played: each run of consecutive games from the server (or entered by hand) is one import.
        start = 0
        while start < len(plans):
            online = plans[start][2]
            stop = start
            while stop < len(plans) and plans[stop][2] == online:
                stop += 1
            run = plans[start:stop]
            deals_total += deals_import_bulk(
                games=[game for game, _deals, _on in run],
                deals=[deal for _game, game_deals, _on in run for deal in game_deals],
                server=server if online else None,
            ).deals
            start = stop
        ratings = PreferansRating.objects.filter(player__is_bot=False)
        pro = ratings.filter(league="pro").count()
        self.counts.update(preferans_games=len(plans), preferans_deals=deals_total)
        return (
            f"{len(plans)} games, {deals_total} deals, {ratings.count()} rated players ({pro} Pro), "
            f"a game server «{server.name}»"
        )
