"""The demo federation's season ahead (issue 30): a dozen tournaments announced across the disciplines, some open
for registration with players registered, one full with a waiting list, one moved and one cancelled.

Written as the calendar's services would leave them (announcement approved by the demo's staff, registrations whose
e-mail is confirmed); the players' addresses are ``example.org`` ones, which no mail server delivers.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from federation.demo.base import Federation
from tournaments.models import (
    AnnouncementStatus,
    CardFormat,
    Discipline,
    GoSystem,
    Registration,
    RegistrationStatus,
    Schedule,
    Tournament,
)

#: (days after the demo's today, days long, discipline, name, city, venue, field limit, registered, waiting list?)
SEASON = [
    (12, 1, Discipline.CARD_GAMES, "Зимний кубок по конструктиву", "Москва", "Клуб «Берсерк»", 32, 14, True),
    (
        19,
        2,
        Discipline.MAHJONG,
        "Открытый чемпионат Санкт-Петербурга по риичи",
        "Санкт-Петербург",
        "Антикафе «Ход»",
        36,
        20,
        True,
    ),
    (26, 1, Discipline.GO, "Новогодний турнир по го", "Казань", "Го-клуб «Тэнгэн»", 40, 9, True),
    (33, 1, Discipline.CARD_GAMES, "Драфт-турнир «Снежный»", "Екатеринбург", "Клуб «Колода»", 8, 11, True),
    (40, 1, Discipline.PREFERANS, "Кубок города по преферансу", "Новосибирск", "Клуб «Пуля»", 24, 6, True),
    (47, 2, Discipline.MAHJONG, "Кубок Волги по риичи", "Нижний Новгород", "Дом учёных", 28, 0, True),
    (54, 1, Discipline.CARD_GAMES, "Силед «Февраль»", "Самара", "Клуб «Карта»", 16, 0, False),
    (61, 2, Discipline.GO, "Чемпионат Урала по го", "Пермь", "Шахматный клуб", 48, 5, True),
    (75, 1, Discipline.CARD_GAMES, "Кубок Ростова", "Ростов-на-Дону", "Библиотека им. Горького", 24, 0, True),
    (89, 3, Discipline.MAHJONG, "Весенний чемпионат России по риичи", "Москва", "Центр «Маджонг»", 64, 0, True),
    (103, 1, Discipline.PREFERANS, "Открытый турнир по преферансу", "Краснодар", "Клуб «Мизер»", 20, 0, True),
    (117, 2, Discipline.GO, "Кубок Сибири по го", "Томск", "Дом молодёжи", 40, 0, True),
]
#: Index into SEASON of the cancelled tournament and of the moved one.
CANCELLED, MOVED = 8, 5


def season_ahead(demo: Federation) -> str:
    """Announce the season and register players; returns the summary line for the demo's output."""
    now = timezone.now()
    registrations = []
    for index, (days, length, discipline, name, city, venue, limit, registered, waiting) in enumerate(SEASON):
        start = demo.today + datetime.timedelta(days=days)
        tournament = Tournament(
            discipline=discipline,
            name=name,
            start_date=start,
            end_date=start + datetime.timedelta(days=length - 1),
            city=city,
            venue=venue,
            organiser=demo.organiser,
            announcement=AnnouncementStatus.APPROVED,
            announcement_approved_by=demo.staff,
            announcement_approved_at=now,
            contact="organiser@example.org",
            description=f"{name}: открытый турнир федерации. Регистрация на сайте.",
            description_en=f"{name}: an open tournament of the federation. Register on the site.",
            rules_note=_rules(discipline),
            max_players=limit,
            waiting_list=waiting,
            registration_deadline=start - datetime.timedelta(days=2),
        )
        if discipline == Discipline.CARD_GAMES:
            tournament.card_format = CardFormat.DRAFT if "Драфт" in name else CardFormat.CONSTRUCTED
            tournament.k = 2 if index == 0 else 1
        elif discipline == Discipline.MAHJONG:
            tournament.hanchans = 8
        elif discipline == Discipline.GO:
            tournament.go_system = GoSystem.FUS
            tournament.rounds = 5
            tournament.half_stone = True
        if index == CANCELLED:
            tournament.schedule = Schedule.CANCELLED
            tournament.schedule_note = "Зал недоступен; турнир отменён."
            tournament.registration_closed = True
            tournament.calendar_sequence = 1
        elif index == MOVED:
            tournament.schedule = Schedule.MOVED
            tournament.schedule_note = f"Перенесён с {(start - datetime.timedelta(days=7)).isoformat()}."
            tournament.calendar_sequence = 1
        tournament.full_clean()
        tournament.save()
        pool = demo.by_discipline.get(discipline) or demo.people
        people = demo.pick(pool, min(registered, len(pool)), city)
        for position, person in enumerate(people):
            status = RegistrationStatus.REGISTERED if position < limit else RegistrationStatus.WAITING
            registrations.append(
                Registration(
                    tournament=tournament,
                    player=person.player,
                    name=person.player.full_name,
                    city=person.player.city,
                    email=f"player{person.player.pk}@example.org",
                    status=status,
                    email_confirmed_at=now,
                    confirmed_by_organiser=position % 3 == 0,
                )
            )
    Registration.objects.bulk_create(registrations)
    waiting = sum(1 for r in registrations if r.status == RegistrationStatus.WAITING)
    demo.report.counts.update(announced=len(SEASON), registrations=len(registrations))
    return (
        f"{len(SEASON)} announced, {len(registrations)} registered ({waiting} on a waiting list), 1 moved, 1 cancelled"
    )


def _rules(discipline: str) -> str:
    return {
        Discipline.CARD_GAMES: "Швейцарская система, 5 туров по 50 минут, топ-8 на выбывание.",
        Discipline.MAHJONG: "Правила EMA, 8 ханчанов по 90 минут, рассадка по системе.",
        Discipline.GO: "Самоуравнивающая система ФУС, 5 туров, 60 минут на партию.",
        Discipline.PREFERANS: "Сочинка, пуля до 30, 4 тура по 2 часа.",
    }[discipline]
