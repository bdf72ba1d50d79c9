"""The demo's tournaments as drafts (card games and mahjong here, Go and preferans beside them), their statuses, and
the one bulk save of them all.

The data follows the rules pages: card-game places are distinct 1..U (rules/gorbunov.md); mahjong fields have N
divisible by four with substitutes and guests, and cut-off tournaments have stages whose hanchans match each result's
hanchans_played (rules/mahjong.md).
"""

from __future__ import annotations

import datetime

from federation.demo.base import Draft, Federation, Person, aware
from federation.demo.names import EMA_ABROAD, FOREIGN_GUEST_NAMES, FOREIGN_GUEST_SURNAMES, FORMAT_NAMES, MAHJONG_CUPS
from tournaments.models import CardFormat, Discipline, Result, Stage, Tournament, TournamentStatus


def card_game_tournaments(demo: Federation) -> list[Draft]:
    rng = demo.rng
    pool = demo.by_discipline[Discipline.CARD_GAMES]
    drafts: list[Draft] = []
    formats = [CardFormat.CONSTRUCTED, CardFormat.LIMITED, CardFormat.SEALED, CardFormat.DRAFT]
    for saturday in demo.weekends():
        if saturday.month == 11 and 8 <= saturday.day <= 14:  # the national championship, second weekend of November
            drafts.append(_card_tournament(demo, pool, saturday, "Москва", CardFormat.COMBINED, 16, size=40, days=2))
            continue
        events = 1 if rng.random() < 0.85 else 0
        events += rng.random() < 0.35
        for _ in range(events):
            k = rng.choices([1, 2, 4, 8], [60, 30, 7, 3])[0]
            size = round(rng.triangular(6, 40, 10)) if k < 4 else rng.randint(16, 40)
            day = saturday + datetime.timedelta(days=rng.choice([0, 0, 1]))
            if day > demo.today:
                day = saturday
            drafts.append(
                _card_tournament(demo, pool, day, demo.city(), rng.choices(formats, [45, 20, 20, 15])[0], k, size)
            )
    demo.say(f"Card games: {len(drafts)} tournaments, {sum(len(d.rows) for d in drafts)} results.")
    return drafts


def _card_tournament(demo: Federation, pool, day, city, card_format, k, size, days=1) -> Draft:
    start = day - datetime.timedelta(days=days - 1)
    if k == 16:
        name = f"Чемпионат России по «Берсерку» {day.year}"
    else:
        high = "Праздничный турнир" if card_format == CardFormat.CONSTRUCTED else "Пререлиз"
        label = {1: "Еженедельный турнир", 2: "Клубный турнир", 4: high, 8: "Региональный чемпионат"}[k]
        name = f"{label} «Берсерк» ({FORMAT_NAMES[card_format]}), {city}"
    tournament = Tournament(
        discipline=Discipline.CARD_GAMES,
        name=name,
        start_date=start,
        end_date=day,
        city=city,
        card_format=card_format,
        k=k,
    )
    people = demo.pick(pool, min(size, len(pool)), city, local=2.0 if k >= 8 else 6.0)
    draft = Draft(tournament, [(p, "", False, None) for p in demo.ranked(people)])
    if k >= 4:  # from K = 4 on judges may not play (rules/gorbunov.md, "K")
        judges = [p for p in demo.pick(pool, len(people) + 1, city) if p not in people]
        draft.judges = judges[:1]
    return draft


def mahjong_tournaments(demo: Federation) -> list[Draft]:
    rng = demo.rng
    pool = demo.by_discipline[Discipline.MAHJONG]
    drafts: list[Draft] = []
    months = list(demo.months())
    # One or two championships with cut-offs, in the last months of the period (rules/mahjong.md, "stages").
    cut_offs = {months[-2]: [(10, 28), (10, 8)]}
    if len(months) > 12:
        cut_offs[months[len(months) // 2]] = [(5, 32), (5, 16), (5, 8), (5, 4)]
    for number, (year, month) in enumerate(months):
        if (year, month) in cut_offs:
            drafts.append(_mahjong_cut_off(demo, pool, year, month, cut_offs[(year, month)]))
        else:
            drafts.append(_mahjong_offline(demo, pool, year, month))
        if rng.random() < 0.4:
            drafts.append(_mahjong_online(demo, pool, year, month))
        if month in (5, 9) and number % 2 == 0:
            drafts.append(_mahjong_abroad(demo, pool, year, month))
    demo.say(f"Mahjong: {len(drafts)} tournaments, {sum(len(d.rows) for d in drafts)} results.")
    return drafts


def _mahjong_rows(demo: Federation, people: list[Person], size: int, hanchans: int, latin: bool = False):
    """Ranked rows of a field of ``size`` (a multiple of four): players, guests and up to three substitutes."""
    rng = demo.rng
    substitutes = rng.choice([0, 0, 1, 2, 3])
    rows: list[tuple[Person | None, str, bool, int | None]] = [
        (p, "", False, hanchans) for p in people[: size - substitutes]
    ]
    while len(rows) < size - substitutes:
        name = f"{rng.choice(FOREIGN_GUEST_SURNAMES)} {rng.choice(FOREIGN_GUEST_NAMES)}" if latin else demo.guest()
        rows.append((None, name, False, hanchans))
    for number in range(substitutes):
        rows.append((None, f"Запасной {number + 1}", True, hanchans))
    skill = {id(row): (row[0].skill if row[0] else rng.gauss(-0.3, 1)) for row in rows}
    rows.sort(key=lambda row: skill[id(row)] + rng.gauss(0, 1.5), reverse=True)
    return rows


def _mahjong_offline(demo: Federation, pool, year, month) -> Draft:
    rng = demo.rng
    city = demo.city()
    size = 4 * rng.randint(4, 20)
    hanchans = rng.choices([4, 5, 6, 7, 8, 10, 12], [10, 10, 25, 15, 25, 10, 5])[0]
    day = demo.day_in_month(year, month)
    days = 2 if hanchans >= 8 else 1
    ema = size >= 32 and hanchans >= 8 and rng.random() < 0.5
    tournament = Tournament(
        discipline=Discipline.MAHJONG,
        name=f"Кубок «{rng.choice(MAHJONG_CUPS)}», {city}",
        start_date=day - datetime.timedelta(days=days - 1),
        end_date=day,
        city=city,
        hanchans=hanchans,
        participants=size,
        accredited=size >= 16 and rng.random() < 0.75,
        is_open=rng.random() < 0.8,
        ema=ema,
    )
    people = demo.pick(pool, min(len(pool), size - rng.randint(0, max(1, size // 10))), city, local=3.0)
    return Draft(tournament, _mahjong_rows(demo, people, size, hanchans))


def _mahjong_online(demo: Federation, pool, year, month) -> Draft:
    rng = demo.rng
    platform = rng.choice(["Mahjong Soul", "tenhou.net"])
    size = 4 * rng.randint(4, 12)
    hanchans = rng.choice([4, 5, 6, 8])
    restricted = rng.random() < 0.4
    day = demo.day_in_month(year, month, weekday=6)
    tournament = Tournament(
        discipline=Discipline.MAHJONG,
        name=f"Онлайн-турнир на {platform}{' (1 дан и выше)' if restricted else ''}, {day:%m.%Y}",
        start_date=day,
        end_date=day,
        city="",
        hanchans=hanchans,
        participants=size,
        online=True,
        online_platform=platform,
        rank_restricted=restricted,
        rank_restriction_legitimate=restricted and rng.random() < 0.8,
        is_open=not restricted,
    )
    people = demo.pick(pool, min(len(pool), size), "")
    return Draft(tournament, _mahjong_rows(demo, people, size, hanchans))


def _mahjong_abroad(demo: Federation, pool, year, month) -> Draft:
    rng = demo.rng
    country, city, city_latin = rng.choice(EMA_ABROAD)
    size = 4 * rng.randint(12, 20)
    day = demo.day_in_month(year, month)
    tournament = Tournament(
        discipline=Discipline.MAHJONG,
        name=f"{city_latin} Riichi Open {year}",
        start_date=day - datetime.timedelta(days=1),
        end_date=day,
        city=city,
        country=country,
        hanchans=8,
        participants=size,
        is_open=True,
        ema=True,
    )
    foreign = [p for p in pool if p.player.country != "RU"]
    russians = demo.pick([p for p in pool if p.player.country == "RU"], rng.randint(2, 8), "")
    people = foreign + russians
    return Draft(tournament, _mahjong_rows(demo, people, size, 8, latin=True))


def _mahjong_cut_off(demo: Federation, pool, year, month, stages: list[tuple[int, int]]) -> Draft:
    """Players who reach stage n play the hanchans of stages 1..n; the field shrinks to the stage's players."""
    size = stages[0][1]
    total = sum(h for h, _ in stages)
    day = demo.day_in_month(year, month)
    city = "Москва" if len(stages) == 2 else "Санкт-Петербург"
    name = f"Чемпионат России по риичи-маджонгу {year}" if len(stages) == 2 else f"Кубок Санкт-Петербурга {year}"
    tournament = Tournament(
        discipline=Discipline.MAHJONG,
        name=name,
        start_date=day - datetime.timedelta(days=1),
        end_date=day,
        city=city,
        hanchans=total,
        participants=size,
        accredited=True,
        is_open=True,
        ema=True,
    )
    people = demo.ranked(demo.pick(pool, min(size, len(pool)), city, local=1.5))
    rows = [(p, "", False, None) for p in people]
    while len(rows) < size:
        rows.append((None, demo.guest(), False, None))
    rows = [
        (person, name, sub, sum(h for h, players in stages if players >= place))
        for place, (person, name, sub, _) in enumerate(rows, start=1)
    ]
    return Draft(tournament, rows, stages=stages)


def statuses_set(demo: Federation, drafts: list[Draft]) -> None:
    """Everything approved by staff, except a few recent tournaments still with the organiser or awaiting staff."""
    recent = sorted(
        (d for d in drafts if (demo.today - d.tournament.end_date).days <= 31 and not d.stages),
        key=lambda d: (d.tournament.end_date, d.tournament.name),
    )
    pending = demo.rng.sample(recent, min(5, len(recent)))
    drafts_left = {id(d) for d in pending[:2]}
    submitted = {id(d) for d in pending[2:]}
    for draft in drafts:
        t = draft.tournament
        t.organiser = demo.organiser
        if id(draft) in drafts_left:
            t.status = TournamentStatus.DRAFT
            continue
        t.submitted_at = _moment(demo, t.end_date, demo.rng.randint(0, 3))
        if id(draft) in submitted:
            t.status = TournamentStatus.SUBMITTED
            continue
        t.status = TournamentStatus.APPROVED
        t.approved_at = _moment(demo, t.end_date, demo.rng.randint(1, 7))
        t.approved_by = demo.staff
        if t.accredited:
            t.accredited_by = demo.staff
            t.accredited_at = _moment(demo, t.start_date, -demo.rng.randint(7, 30))
    counts = {status: sum(d.tournament.status == status for d in drafts) for status in TournamentStatus.values}
    demo.say("Statuses: " + ", ".join(f"{status} {n}" for status, n in counts.items()) + ".")


def _moment(demo: Federation, day: datetime.date, days_later: int) -> datetime.datetime:
    day = min(day + datetime.timedelta(days=days_later), demo.today)
    naive = datetime.datetime.combine(day, datetime.time(10 + demo.rng.randrange(10), demo.rng.randrange(60)))
    return aware(naive)


def tournaments_save(demo: Federation, drafts: list[Draft]) -> None:
    drafts.sort(key=lambda d: (d.tournament.end_date, d.tournament.discipline, d.tournament.name))
    Tournament.objects.bulk_create([d.tournament for d in drafts], batch_size=500)
    results, stages, judges = [], [], []
    through = Tournament.judges.through
    for draft in drafts:
        t = draft.tournament
        for place, (person, name, substitute, hanchans) in enumerate(draft.rows, start=1):
            results.append(
                Result(
                    tournament=t,
                    player=person.player if person else None,
                    participant_name=name,
                    place=place,
                    hanchans_played=hanchans,
                    substitute=substitute,
                )
            )
        for number, (hanchans, players) in enumerate(draft.stages, start=1):
            stages.append(Stage(tournament=t, number=number, hanchans=hanchans, players=players))
        judges += [through(tournament_id=t.pk, player_id=j.player.pk) for j in draft.judges]
    Result.objects.bulk_create(results, batch_size=1000)
    Stage.objects.bulk_create(stages)
    through.objects.bulk_create(judges)
    demo.report.counts.update(tournaments=len(drafts), results=len(results), stages=len(stages))
