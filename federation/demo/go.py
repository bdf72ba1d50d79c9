"""The demo's Go: club tournaments with their results only, then the DIRS club rating fed game by game and three
tournaments (DIRS, PROFS, FUS) run round by round through the Go services (rules/go.md).

Go pairing draws a round's seed from the system's randomness (colours); to keep the demo reproducible each round is
re-paired (``go_round_repair``) after its seed is set from the demo's generator.
"""

from __future__ import annotations

import datetime
import math
import random

from federation.demo.base import Draft, Federation, Feed
from federation.demo.names import SEASONS
from federation.models import Club
from ratings.dirs.models import DirsGame, DirsRating
from ratings.dirs.services import dirs_game_record, dirs_rating_set_initial
from ratings.engines import dirs
from tournaments.go.models import Board, BoardResult, GoTournament, Round, StandingRow
from tournaments.go.services import (
    go_registration_add,
    go_result_enter,
    go_round_pair,
    go_round_publish,
    go_round_repair,
    go_tournament_create,
)
from tournaments.models import Discipline, GoSystem, Tournament
from tournaments.services import ResultRow, tournament_approve, tournament_results_replace, tournament_submit

DIRS_PLAYERS = 60
DIRS_CLUB_GAMES = 200
DIRS_WRONG_HANDICAP = 8
GO_GUESTS = [("Ли Вэй", 1900), ("Park Minho", 2250), ("Tanaka Hiroshi", 1650)]


def go_tournaments(demo: Federation) -> list[Draft]:
    rng = demo.rng
    pool = demo.by_discipline[Discipline.GO]
    drafts = []
    for year, month in demo.months():
        for _ in range(1 + (rng.random() < 0.5)):
            city = demo.city()
            system = rng.choice([GoSystem.PROFS, GoSystem.FUS])
            fus = system == GoSystem.FUS
            rounds = rng.randint(5, 7)
            day = demo.day_in_month(year, month)
            tournament = Tournament(
                discipline=Discipline.GO,
                name=f"{SEASONS[month]} турнир по го, {city}",
                start_date=day - datetime.timedelta(days=1 if rounds > 5 else 0),
                end_date=day,
                city=city,
                go_system=system,
                rounds=rounds,
                half_stone=fus,
                acceleration=fus,
            )
            people = demo.pick(pool, min(rng.randint(10, 40), len(pool)), city, local=5.0)
            drafts.append(Draft(tournament, [(p, "", False, None) for p in demo.ranked(people, noise=0.8)]))
    demo.say(f"Go: {len(drafts)} tournaments, {sum(len(d.rows) for d in drafts)} results.")
    return drafts


def _declared_rank(skill: float) -> str:
    """A declared rank from the hidden strength: about 6 kyu on average, from 20 kyu to 6 dan."""
    rating = max(10, min(260, round(150 + 45 * skill)))
    level = rating // 10
    return f"{21 - level}k" if level < 21 else f"{level - 20}d"


def dirs_club_games(feed: Feed) -> str:
    rng = feed.rng
    members = sorted(feed.members[Discipline.GO], key=lambda m: -m.activity)[:DIRS_PLAYERS]
    members.sort(key=lambda m: m.player.pk)
    for member in members:
        dirs_rating_set_initial(player=member.player, rank=_declared_rank(member.skill))
    feed.dirs_members = members
    if len(members) < 2:
        return f"{len(members)} ratings"
    clubs = list(Club.objects.order_by("pk"))
    games = min(DIRS_CLUB_GAMES, 4 * len(members))
    wrong = set(rng.sample(range(games), min(DIRS_WRONG_HANDICAP, games // 10)))
    first = feed.today - datetime.timedelta(days=330)
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
            user=feed.organiser,
        )
        rated += game.rated
    total = DirsGame.objects.count()
    feed.counts.update(dirs_ratings=len(members), dirs_games=total)
    return f"{len(members)} ratings from declared ranks, {total} club games ({total - rated} not rated)"


def go_tournaments_run(feed: Feed) -> str:
    rng = feed.rng
    with_dirs = list(feed.dirs_members)
    pool = sorted(feed.members[Discipline.GO], key=lambda m: m.player.pk)
    specs = [
        (GoSystem.DIRS, "Турнир клуба по ДИРС, Москва", "Москва", 75, 4, min(12, len(with_dirs)), True),
        (GoSystem.PROFS, "Открытое первенство Санкт-Петербурга по го (ПРОФС)", "Санкт-Петербург", 45, 5, 16, False),
        (GoSystem.FUS, "Кубок «Тэнгэн» по го (ФУС)", "Москва", 17, 6, 24, False),
    ]
    made = []
    boards = 0
    for system, name, city, days_ago, rounds, size, dirs_only in specs:
        if size < 4:
            continue
        end = feed.today - datetime.timedelta(days=days_ago)
        fus = system == GoSystem.FUS
        go = go_tournament_create(
            user=feed.organiser,
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
            boards += _go_round(feed, go, strength)
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
        tournament_submit(tournament=tournament, user=feed.organiser)
        tournament_approve(tournament=tournament, user=feed.staff)
        made.append(f"{system} {len(strength)} players {rounds} rounds")
    feed.counts.update(go_rounds=Round.objects.count(), go_boards=boards)
    return f"{len(made)} run round by round ({'; '.join(made)}), {boards} boards"


def _go_round(feed: Feed, go: GoTournament, strength: dict[int, float]) -> int:
    rnd = go_round_pair(go=go, user=feed.organiser)
    Round.objects.filter(pk=rnd.pk).update(seed=feed.rng.randrange(2**31))
    rnd.refresh_from_db()
    go_round_repair(go_round=rnd, user=feed.organiser)
    go_round_publish(go_round=rnd)
    played = list(Board.objects.filter(round=rnd).select_related("white", "black").order_by("number"))
    for board in played:
        # Each game has a generator of its own, named by the round and the two players (not by colour or board:
        # the engine draws colours from the registrations' ids, which differ between runs); the handicap evens
        # the levels out and the hidden strength decides.
        first, second = sorted([(board.white.name, board.white_id), (board.black.name, board.black_id)])
        game_rng = random.Random(f"{feed.seed}:{go.tournament.name}:{rnd.number}:{first[0]}:{second[0]}")
        edge = strength[first[1]] - strength[second[1]]
        first_wins = game_rng.random() < 1 / (1 + math.exp(-1.3 * edge))
        white_wins = first_wins == (first[1] == board.white_id)
        winner = BoardResult.WHITE if white_wins else BoardResult.BLACK
        if game_rng.random() < 0.03:
            winner = BoardResult.WHITE_FORFEIT if white_wins else BoardResult.BLACK_FORFEIT
        go_result_enter(go_round=rnd, board_number=board.number, result=winner, user=feed.organiser)
    return len(played)
