"""The demo's people: the three sign-in users, clubs, players (Russian and a few foreign mahjong players) and bots.

Rows are written with ``bulk_create`` (no history rows, no ``save()``), so ``search_name`` is filled here exactly
as ``Player.save`` fills it.
"""

from __future__ import annotations

import random
from collections.abc import Collection

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from federation.demo.base import Federation, Person
from federation.demo.names import (
    BOT_LEVELS,
    CLUB_NAMES,
    FEMALE_NAMES,
    FOREIGN_PLAYERS,
    MALE_NAMES,
    SURNAMES,
    feminine_surname,
    transliterate,
)
from federation.models import BotLevel, Club, Player
from federation.roles import FEDERATION_STAFF, ORGANISERS, ensure_roles
from tournaments.models import Discipline

DEMO_USERS = [
    # username, password, superuser, group
    ("admin", "admin", True, None),
    ("organiser", "organiser", False, ORGANISERS),
    ("staff", "staff", False, FEDERATION_STAFF),
]


def demo_users_create(demo: Federation) -> None:
    """The three demo users (kept if they exist, with whatever password they have now)."""
    ensure_roles()
    user_model = get_user_model()
    created_now = set()
    for username, password, superuser, group in DEMO_USERS:
        user, created = user_model.objects.get_or_create(
            username=username,
            defaults={"is_staff": True, "is_superuser": superuser, "email": f"{username}@example.org"},
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
            created_now.add(username)
        if group:
            user.groups.add(Group.objects.get(name=group))
    demo.organiser = user_model.objects.get(username="organiser")
    demo.staff = user_model.objects.get(username="staff")
    demo.report.logins = demo_logins(created=created_now)


def demo_logins(*, created: Collection[str] = ()) -> list[tuple[str, str, str]]:
    """(username, password, role) of each demo user that exists; the password is "" once someone changed it.

    Checking a password costs a deliberately slow hash, so the users just ``created`` are not checked.
    """
    users = get_user_model().objects.in_bulk([username for username, *_ in DEMO_USERS], field_name="username")
    logins = []
    for username, password, superuser, group in DEMO_USERS:
        user = users.get(username)
        if user is not None:
            shown = password if username in created or user.check_password(password) else ""
            logins.append((username, shown, "superuser" if superuser else group))
    return logins


#: The demo's first clubs have a meeting place, a contact and a website on their pages; the others show the page of
#: a club the federation knows nothing more of.
CLUBS_WITH_CONTACTS = 3
#: (street in Russian, in English), (weekday in Russian, in English) of the demo clubs' meeting places.
STREETS = [("ул. Ленина", "Lenina St"), ("пр. Мира", "Mira Ave"), ("ул. Гагарина", "Gagarina St")]
WEEKDAYS = [("по средам", "Wednesdays"), ("по пятницам", "Fridays"), ("по субботам", "Saturdays")]


def _club_contact(club: Club) -> None:
    """A meeting place, contact and website of ``club``, drawn from its name (not from the demo's random numbers,
    which would make every later draw of the demo different)."""
    rng = random.Random(f"{club.name} {club.city}")
    (street, street_en), (days, days_en) = rng.choice(STREETS), rng.choice(WEEKDAYS)
    number, hour, phone = rng.randint(1, 120), rng.choice((18, 19)), rng.randint(1000000, 9999999)
    club.meeting_place = f"{street}, {number}, {days} с {hour}:00"
    club.meeting_place_en = f"{number} {street_en}, {days_en} from {hour - 12} pm"
    club.contact = f"Организатор клуба: +7 900 {str(phone)[:3]}-{str(phone)[3:5]}-{str(phone)[5:]}"
    club.contact_en = f"The club's organiser: +7 900 {str(phone)[:3]}-{str(phone)[3:5]}-{str(phone)[5:]}"
    club.website = f"https://club{rng.randint(1, 999)}.example.org/"


def clubs_create(demo: Federation) -> None:
    rng = demo.rng
    count = max(4, round(demo.player_count / 15))
    weights = {Discipline.CARD_GAMES: 4, Discipline.MAHJONG: 3, Discipline.GO: 3, Discipline.PREFERANS: 1}
    seen: set[tuple[str, str]] = set()
    clubs = []
    while len(clubs) < count:
        city = demo.city()
        discipline = rng.choices(list(weights), list(weights.values()))[0]
        name = f"«{rng.choice(CLUB_NAMES[discipline])}»"
        if (name, city) in seen:
            continue
        seen.add((name, city))
        club = Club(name=name, city=city, country="RU")
        if len(clubs) < CLUBS_WITH_CONTACTS:
            _club_contact(club)
        club.discipline = discipline  # only for choosing members below
        clubs.append(club)
    Club.objects.bulk_create(clubs)
    for club in clubs:
        demo.clubs.setdefault(club.city, []).append(club)
    demo.report.counts["clubs"] = len(clubs)


def players_create(demo: Federation) -> None:
    rng = demo.rng
    used_ids: set[str] = set()

    def unique_id(prefix: str, digits: int) -> str:
        while True:
            value = prefix + "".join(rng.choice("0123456789") for _ in range(digits))
            if value not in used_ids:
                used_ids.add(value)
                return value

    disciplines = [Discipline.CARD_GAMES, Discipline.MAHJONG, Discipline.GO, Discipline.PREFERANS]
    surname_weights = [4 if i < 30 else 1 for i in range(len(SURNAMES))]
    foreign = FOREIGN_PLAYERS[: max(2, min(len(FOREIGN_PLAYERS), demo.player_count // 50))]
    for index in range(demo.player_count - len(foreign)):
        primary = rng.choices(disciplines, [40, 25, 25, 10])[0]
        played = {primary}
        if rng.random() < 0.15:
            played.add(rng.choice(disciplines))
        female = rng.random() < (0.15 if primary == Discipline.CARD_GAMES else 0.3)
        surname = rng.choices(SURNAMES, surname_weights)[0]
        if female:
            surname, first = feminine_surname(surname), rng.choice(FEMALE_NAMES)
        else:
            first = rng.choice(MALE_NAMES)
        city = demo.city()
        local_clubs = [c for c in demo.clubs.get(city, []) if c.discipline in played]
        club = rng.choice(local_clubs) if local_clubs and rng.random() < 0.7 else None
        player = Player(
            last_name=surname,
            first_name=first,
            last_name_latin=transliterate(surname),
            first_name_latin=transliterate(first),
            city=city,
            country="RU",
            club=club,
        )
        if Discipline.MAHJONG in played and rng.random() < 0.5:
            player.ema_id = unique_id("070", 5)
        if Discipline.GO in played and rng.random() < 0.6:
            player.egd_pin = unique_id("1", 7)
        # Every tenth player is very active; most play now and then.
        activity = rng.lognormvariate(0, 0.8) * (4 if index % 10 == 0 else 1)
        demo.people.append(Person(player, played, activity, rng.gauss(0, 1)))
    for last, first, last_latin, first_latin, country, city in foreign:
        player = Player(
            last_name=last,
            first_name=first,
            last_name_latin=last_latin,
            first_name_latin=first_latin,
            city=city,
            country=country,
            ema_id=unique_id(f"{10 + len(used_ids) % 80:02d}", 6),
        )
        demo.people.append(Person(player, {Discipline.MAHJONG}, rng.uniform(0.3, 1.5), rng.gauss(0.3, 1)))
    for person in demo.people:
        person.player.fill_search_name()
    Player.objects.bulk_create([p.player for p in demo.people], batch_size=500)
    for person in demo.people:
        for discipline in person.disciplines:
            demo.by_discipline[discipline].append(person)
    demo.report.counts["players"] = len(demo.people)
    demo.say(f"Players: {len(demo.people)} in {len({p.player.city for p in demo.people})} cities.")


def bots_create(demo: Federation) -> None:
    """One bot per level, for the preferans tables."""
    bots = []
    for name, max_rating in BOT_LEVELS:
        level, _ = BotLevel.objects.get_or_create(name=name, defaults={"max_rating": max_rating})
        bot = Player(
            last_name=f"Бот «{name}»",
            last_name_latin=f"Bot {transliterate(name)}",
            is_bot=True,
            bot_level=level,
            city="",
            country="RU",
        )
        bot.fill_search_name()
        bots.append(bot)
    Player.objects.bulk_create(bots)
    demo.report.counts["bots"] = len(bots)
