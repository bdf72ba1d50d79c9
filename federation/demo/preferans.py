"""The demo's preferans: club tournaments with their places, then games with humans and bots whose deals go through
the preferans bulk import, some from a game server and some entered by hand (rules/preferans.md)."""

from __future__ import annotations

import datetime

from federation.demo.base import Draft, Federation, Feed, aware
from federation.models import Player
from ratings.preferans.models import PreferansRating
from ratings.preferans.services import BulkDeal, BulkGame, deals_import_bulk, game_server_create
from tournaments.models import Discipline, Tournament

PREFERANS_GAMES = 150
PREFERANS_DEALS = 20


def preferans_tournaments(demo: Federation) -> list[Draft]:
    rng = demo.rng
    pool = demo.by_discipline[Discipline.PREFERANS]
    drafts = []
    for year, month in demo.months():
        if month not in (3, 10):
            continue
        city = rng.choice(["Москва", "Санкт-Петербург", "Екатеринбург"])
        day = demo.day_in_month(year, month, weekday=6)
        tournament = Tournament(
            discipline=Discipline.PREFERANS,
            name=f"Кубок «{rng.choice(['Сочинка', 'Мизер', 'Пуля'])}», {city}",
            start_date=day,
            end_date=day,
            city=city,
        )
        people = demo.pick(pool, min(3 * rng.randint(3, 8), len(pool)), city, local=3.0)
        drafts.append(Draft(tournament, [(p, "", False, None) for p in demo.ranked(people, noise=2.0)]))
    demo.say(f"Preferans: {len(drafts)} tournaments, {sum(len(d.rows) for d in drafts)} results.")
    return drafts


def preferans_games_play(feed: Feed) -> str:
    rng = feed.rng
    humans = sorted(feed.members[Discipline.PREFERANS], key=lambda m: m.player.pk)
    if len(humans) < 3:
        return "too few players"
    bots = sorted(
        Player.objects.filter(is_bot=True, bot_level__isnull=False).select_related("bot_level"),
        key=lambda p: p.bot_level.max_rating,
    )
    bot_skill = {bot.pk: (-1.5, 0.0, 1.5)[min(i, 2)] for i, bot in enumerate(bots)}
    stars = sorted(humans, key=lambda m: -m.skill)[: max(2, len(humans) // 12)]
    champions = {m.player.pk for m in stars[: max(1, len(stars) // 2)]}
    star_ids = {m.player.pk for m in stars}
    weights = [12 if m.player.pk in champions else 3 if m.player.pk in star_ids else m.activity for m in humans]
    skill = {m.player.pk: m.skill for m in humans} | bot_skill
    count = max(40, min(PREFERANS_GAMES, round(2.5 * len(humans))))
    server, _token = game_server_create(name="Локальный демо-сервер")  # the token is not shown: demo only
    first = feed.today - datetime.timedelta(days=180)
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
        played_at = aware(moment)
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
    feed.counts.update(preferans_games=len(plans), preferans_deals=deals_total)
    return (
        f"{len(plans)} games, {deals_total} deals, {ratings.count()} rated players ({pro} Pro), "
        f"a game server «{server.name}»"
    )
