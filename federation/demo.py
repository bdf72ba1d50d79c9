"""A believable federation for the local demo site: clubs, players, bots, users and three years of tournaments.

Everything comes from one ``random.Random(seed)`` and a fixed anchor date, so two runs with the same options give
the same names, tournaments and places (only database ids and creation timestamps differ). The data follows the
rules pages: card-game places are distinct 1..U (rules/gorbunov.md), mahjong fields have N divisible by four with
substitutes and guests, and cut-off tournaments have stages whose hanchans match each result's hanchans_played
(rules/mahjong.md); Go tournaments are PROFS or FUS (rules/go.md).

Then ``federation.demo_ratings`` feeds every rating system through its own services: Gorbunov publications, mahjong
snapshots, Go tournaments run round by round with DIRS club games, and preferans games with their deals.

Rows are written with ``bulk_create`` (no history rows, no ``save()``), so ``search_name`` is computed here exactly
as ``Player.save`` computes it.
"""

from __future__ import annotations

import datetime
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from federation.demo_ratings import Member, RatingsDemo, ratings_demo_delete
from federation.models import BotLevel, Club, Player
from federation.roles import FEDERATION_STAFF, ORGANISERS, ensure_roles
from federation.services import player_tournament_counts_refresh
from tournaments.models import CardFormat, Discipline, GoSystem, Result, Stage, Tournament, TournamentStatus

logger = logging.getLogger(__name__)

DEFAULT_SEED = 2026
#: A fixed "today": the demo must not depend on the day it is generated.
DEFAULT_TODAY = datetime.date(2026, 11, 30)
DEFAULT_PLAYERS = 600
DEFAULT_YEARS = 3

# Passport transliteration (ICAO Doc 9303, used in Russian passports since 2014; the same as GOST R 52535.1-2006
# except ц -> ts and ъ -> ie): Щукин -> Shchukin, Ёлкин -> Elkin, Юлия -> Iuliia.
_TRANSLIT = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i",
    "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "ie", "ы": "y", "ь": "",
    "э": "e", "ю": "iu", "я": "ia",
}  # fmt: skip


def transliterate(text: str) -> str:
    """Cyrillic to Latin as in a Russian passport; other characters pass through."""
    out = []
    for char in text:
        latin = _TRANSLIT.get(char.lower())
        if latin is None:
            out.append(char)
        elif char.isupper():
            out.append(latin.capitalize())
        else:
            out.append(latin)
    return "".join(out)


def _words(text: str) -> list[str]:
    return text.split()


def feminine_surname(surname: str) -> str:
    """The female form of a Russian surname: Иванов -> Иванова, Вишневский -> Вишневская, Шевченко stays."""
    if surname.endswith(("ов", "ев", "ёв", "ин", "ын")):
        return surname + "а"
    if surname.endswith(("ский", "цкий")):
        return surname[:-2] + "ая"
    if surname.endswith("ой"):
        return surname[:-2] + "ая"
    return surname


# The most frequent Russian surnames first (the first 30 are drawn more often), a few Tatar ones for Kazan,
# and some that do not change with gender.
SURNAMES = _words("""
Иванов Смирнов Кузнецов Попов Васильев Петров Соколов Михайлов Новиков Фёдоров Морозов Волков Алексеев Лебедев
Семёнов Егоров Павлов Козлов Степанов Николаев Орлов Андреев Макаров Никитин Захаров Зайцев Соловьёв Борисов
Яковлев Григорьев Романов Воробьёв Сергеев Кузьмин Фролов Александров Дмитриев Королёв Гусев Киселёв Ильин
Максимов Поляков Сорокин Виноградов Ковалёв Белов Медведев Антонов Тарасов Жуков Баранов Филиппов Комаров
Давыдов Беляев Герасимов Богданов Осипов Сидоров Матвеев Титов Марков Миронов Крылов Куликов Карпов Власов
Мельников Денисов Гаврилов Тихонов Казаков Афанасьев Данилов Савельев Тимофеев Фомин Чернов Абрамов Мартынов
Ефимов Федотов Щербаков Назаров Калинин Исаев Чернышёв Быков Маслов Родионов Коновалов Лазарев Воронин Климов
Филатов Пономарёв Голубев Кудрявцев Прохоров Наумов Потапов Журавлёв Овчинников Трофимов Леонов Соболев Ермаков
Колесников Гончаров Емельянов Никифоров Грачёв Котов Гришин Ефремов Архипов Громов Кириллов Малышев Панов
Моисеев Румянцев Акимов Кондратьев Бирюков Горбунов Анисимов Ерёмин Тихомиров Галкин Лукьянов Михеев Скворцов
Юдин Белоусов Нестеров Симонов Прокофьев Харитонов Князев Цветков Левин Митрофанов Воронов Аксёнов Мальцев
Логинов Горшков Савин Краснов Майоров Демидов Елисеев Рыбаков Сафонов Плотников Дёмин Хохлов Фадеев Молчанов
Игнатов Литвинов Ершов Ушаков Рябов Мухин Калашников Лобанов Бородин Платонов Некрасов Бобров Жданов Блинов
Дроздов Лавров Зуев Ларин Серов Зотов Устинов Фокин Самойлов Шишкин Черкасов Чистяков Носов Воронцов Зверев
Селезнёв Нечаев Седов Головин Терехов Шестаков Гордеев Зимин Широков Суворов Щукин Ёлкин Хабибуллин Сафин
Валиев Шарипов Ахметов Зарипов Гарипов Вишневский Островский Покровский Новицкий Садовский Толстой Шевченко
Бондаренко Ткаченко Коваленко Ким Черных Седых
""")

MALE_NAMES = _words("""
Александр Дмитрий Сергей Андрей Алексей Максим Евгений Иван Михаил Артём Никита Владимир Павел Денис Роман Антон
Илья Кирилл Николай Олег Игорь Константин Виктор Юрий Егор Тимур Глеб Вадим Григорий Станислав Фёдор Степан
Ярослав Руслан Даниил Пётр Василий Леонид Георгий Матвей
""")

FEMALE_NAMES = _words("""
Анна Елена Ольга Наталья Татьяна Мария Екатерина Ирина Светлана Юлия Анастасия Дарья Ксения Марина Александра
Виктория Полина Алина Евгения Надежда Вера Людмила Софья Валерия Елизавета Кристина Алёна Галина Любовь Яна
Ульяна Варвара Вероника Маргарита Диана Лариса
""")

CITIES = [
    ("Москва", 30),
    ("Санкт-Петербург", 16),
    ("Новосибирск", 6),
    ("Екатеринбург", 6),
    ("Казань", 5),
    ("Нижний Новгород", 4),
    ("Самара", 3),
    ("Ростов-на-Дону", 3),
    ("Краснодар", 3),
    ("Пермь", 3),
    ("Воронеж", 2),
    ("Томск", 2),
    ("Владивосток", 2),
    ("Омск", 2),
    ("Челябинск", 2),
    ("Ярославль", 2),
    ("Тула", 1),
    ("Иркутск", 1),
    ("Калининград", 1),
]

# Foreign mahjong players: surname, first name (Cyrillic), surname, first name (Latin), country, city.
FOREIGN_PLAYERS = [
    ("Шмидт", "Томас", "Schmidt", "Thomas", "DE", "Берлин"),
    ("Янссен", "Питер", "Janssen", "Pieter", "NL", "Амстердам"),
    ("Дюпон", "Люк", "Dupont", "Luc", "FR", "Париж"),
    ("Новак", "Томаш", "Nowak", "Tomasz", "PL", "Варшава"),
    ("Виртанен", "Микко", "Virtanen", "Mikko", "FI", "Хельсинки"),
    ("Хансен", "Ларс", "Hansen", "Lars", "DK", "Копенгаген"),
    ("Бьянки", "Марко", "Bianchi", "Marco", "IT", "Милан"),
    ("Новотный", "Ян", "Novotný", "Jan", "CZ", "Прага"),
    ("Сато", "Кэндзи", "Sato", "Kenji", "JP", "Токио"),
    ("Андерссон", "Эрик", "Andersson", "Erik", "SE", "Стокгольм"),
    ("Ковач", "Петер", "Kovács", "Péter", "HU", "Будапешт"),
    ("Мюллер", "Анна", "Müller", "Anna", "DE", "Мюнхен"),
]
# Guests abroad who have no profile with us.
FOREIGN_GUEST_SURNAMES = _words(
    "Weber Meyer Wagner Becker Jansen Smit Bakker Martin Bernard Rossi Ferrari Kowalski Dvořák"
)
FOREIGN_GUEST_NAMES = _words("Lukas Jonas Anna Sophie Daan Emma Louis Camille Luca Giulia Piotr Ola Tereza")
EMA_ABROAD = [("DE", "Берлин", "Berlin"), ("NL", "Амстердам", "Amsterdam"), ("DK", "Копенгаген", "Copenhagen"),
              ("FR", "Париж", "Paris"), ("CZ", "Прага", "Prague"), ("PL", "Варшава", "Warsaw")]  # fmt: skip

CLUB_NAMES = {
    Discipline.CARD_GAMES: [
        "Берсерк-Арена",
        "Колода",
        "Игротека",
        "Мир Берсерка",
        "Оракул",
        "Гильдия",
        "Карточный дом",
    ],
    Discipline.MAHJONG: [
        "Хаку",
        "Риичи",
        "Белый дракон",
        "Восточный ветер",
        "Тэнпай",
        "Бамбуковый лес",
        "Маджонг-клуб",
    ],
    Discipline.GO: ["Тэнгэн", "Хоси", "Белый камень", "Ко", "Дзосэки", "Го-клуб", "Сэнтэ"],
    Discipline.PREFERANS: ["Пуля", "Сочинка", "Мизер", "Распасы", "Вист"],
}
MAHJONG_CUPS = ["Белый дракон", "Красный дракон", "Зелёный дракон", "Восточный ветер", "Южный ветер", "Бамбук",
                "Лотос", "Сакура", "Тюн", "Хацу"]  # fmt: skip
FORMAT_NAMES = {
    CardFormat.CONSTRUCTED: "констрактед",
    CardFormat.LIMITED: "лимитед",
    CardFormat.SEALED: "силед",
    CardFormat.DRAFT: "драфт",
    CardFormat.COMBINED: "лимитед и констрактед",
}
SEASONS = {12: "Зимний", 1: "Зимний", 2: "Зимний", 3: "Весенний", 4: "Весенний", 5: "Весенний", 6: "Летний",
           7: "Летний", 8: "Летний", 9: "Осенний", 10: "Осенний", 11: "Осенний"}  # fmt: skip
BOT_LEVELS = [("Новичок", 1200), ("Обычный", 1800), ("Сильный", 2400)]

DEMO_USERS = [
    # username, password, superuser, group
    ("admin", "admin", True, None),
    ("organiser", "organiser", False, ORGANISERS),
    ("staff", "staff", False, FEDERATION_STAFF),
]


@dataclass
class DemoReport:
    created: bool
    counts: dict[str, int] = field(default_factory=dict)
    #: (username, password or "" when the user already existed and keeps its password, role)
    logins: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class _Person:
    """A generated player before and after it is saved; the attributes drive who plays where and how well."""

    player: Player
    disciplines: set[str]
    activity: float
    skill: float


@dataclass
class _Draft:
    """A tournament with its results (player or guest name, substitute flag, hanchans played) before saving."""

    tournament: Tournament
    rows: list[tuple[_Person | None, str, bool, int | None]] = field(default_factory=list)
    stages: list[tuple[int, int]] = field(default_factory=list)
    judges: list[_Person] = field(default_factory=list)


def demo_data_exists() -> bool:
    return Player.objects.exists() or Tournament.objects.exists() or Club.objects.exists()


def demo_data_create(
    *,
    seed: int = DEFAULT_SEED,
    today: datetime.date = DEFAULT_TODAY,
    players: int = DEFAULT_PLAYERS,
    years: int = DEFAULT_YEARS,
    reset: bool = False,
    progress: Callable[[str], None] | None = None,
) -> DemoReport:
    """Fill the database with the demo federation; without ``reset`` a database that has data is left alone."""
    say = progress or logger.info
    with transaction.atomic():
        if demo_data_exists():
            if not reset:
                return DemoReport(created=False)
            _delete_all(say)
        generator = _Generator(rng=random.Random(seed), today=today, players=players, years=years, say=say)
        report = generator.run()
        _ratings(generator, seed=seed, say=say)
        player_tournament_counts_refresh()
    return report


def _ratings(generator: _Generator, *, seed: int, say: Callable[[str], None]) -> None:
    """Feed every rating system through its services (``federation.demo_ratings``)."""

    def members(discipline: str) -> list[Member]:
        return [Member(p.player, p.skill, p.activity) for p in generator.by_discipline[discipline]]

    RatingsDemo(
        seed=seed,
        today=generator.today,
        start=generator.start,
        say=say,
        organiser=generator.organiser,
        staff=generator.staff,
        go_members=members(Discipline.GO),
        preferans_members=members(Discipline.PREFERANS),
        bots=list(Player.objects.filter(is_bot=True, bot_level__isnull=False).select_related("bot_level")),
        counts=generator.report.counts,
    ).run()


def _delete_all(say: Callable[[str], None]) -> None:
    # Turning history off skips one history row per deleted object (a reset of demo data need not be audited).
    with override_settings(SIMPLE_HISTORY_ENABLED=False):
        ratings_demo_delete()
        Result.objects.all().delete()
        Stage.objects.all().delete()
        Tournament.objects.all().delete()
        Player.objects.all().delete()
        Club.objects.all().delete()
    say(
        "Deleted rating snapshots and changes, Go rounds and DIRS data, preferans games, tournaments, results, players "
        "and clubs."
    )


class _Generator:
    def __init__(self, *, rng: random.Random, today: datetime.date, players: int, years: int, say) -> None:
        self.rng = rng
        self.today = today
        self.start = datetime.date(today.year - years + 1, 1, 1)
        self.player_count = players
        self.say = say
        self.people: list[_Person] = []
        self.by_discipline: dict[str, list[_Person]] = {d: [] for d in Discipline.values}
        self.clubs: dict[str, list[Club]] = {}
        self.used_ids: set[str] = set()
        self.report = DemoReport(created=True)

    def run(self) -> DemoReport:
        self._users()
        self._clubs()
        self._players()
        self._bots()
        drafts = [
            *self._card_games(),
            *self._mahjong(),
            *self._go(),
            *self._preferans(),
        ]
        self._statuses(drafts)
        self._save(drafts)
        return self.report

    # --- people --------------------------------------------------------------------------------------------------

    def _users(self) -> None:
        ensure_roles()
        user_model = get_user_model()
        for username, password, superuser, group in DEMO_USERS:
            user, created = user_model.objects.get_or_create(
                username=username,
                defaults={"is_staff": True, "is_superuser": superuser, "email": f"{username}@example.org"},
            )
            if created:
                user.set_password(password)
                user.save(update_fields=["password"])
            if group:
                user.groups.add(Group.objects.get(name=group))
            role = "superuser" if superuser else group
            self.report.logins.append((username, password if created else "", role))
        self.admin = user_model.objects.get(username="admin")
        self.organiser = user_model.objects.get(username="organiser")
        self.staff = user_model.objects.get(username="staff")

    def _city(self) -> str:
        names, weights = zip(*CITIES, strict=True)
        return self.rng.choices(names, weights)[0]

    def _clubs(self) -> None:
        count = max(4, round(self.player_count / 15))
        weights = {Discipline.CARD_GAMES: 4, Discipline.MAHJONG: 3, Discipline.GO: 3, Discipline.PREFERANS: 1}
        seen: set[tuple[str, str]] = set()
        clubs = []
        while len(clubs) < count:
            city = self._city()
            discipline = self.rng.choices(list(weights), list(weights.values()))[0]
            name = f"«{self.rng.choice(CLUB_NAMES[discipline])}»"
            if (name, city) in seen:
                continue
            seen.add((name, city))
            club = Club(name=name, city=city, country="RU")
            club.discipline = discipline  # only for choosing members below
            clubs.append(club)
        Club.objects.bulk_create(clubs)
        for club in clubs:
            self.clubs.setdefault(club.city, []).append(club)
        self.report.counts["clubs"] = len(clubs)

    def _unique_id(self, prefix: str, digits: int) -> str:
        while True:
            value = prefix + "".join(self.rng.choice("0123456789") for _ in range(digits))
            if value not in self.used_ids:
                self.used_ids.add(value)
                return value

    def _players(self) -> None:
        rng = self.rng
        disciplines = [Discipline.CARD_GAMES, Discipline.MAHJONG, Discipline.GO, Discipline.PREFERANS]
        surname_weights = [4 if i < 30 else 1 for i in range(len(SURNAMES))]
        foreign = FOREIGN_PLAYERS[: max(2, min(len(FOREIGN_PLAYERS), self.player_count // 50))]
        for index in range(self.player_count - len(foreign)):
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
            city = self._city()
            local_clubs = [c for c in self.clubs.get(city, []) if c.discipline in played]
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
                player.ema_id = self._unique_id("070", 5)
            if Discipline.GO in played and rng.random() < 0.6:
                player.egd_pin = self._unique_id("1", 7)
            # Every tenth player is very active; most play now and then.
            activity = rng.lognormvariate(0, 0.8) * (4 if index % 10 == 0 else 1)
            self.people.append(_Person(player, played, activity, rng.gauss(0, 1)))
        for last, first, last_latin, first_latin, country, city in foreign:
            player = Player(
                last_name=last,
                first_name=first,
                last_name_latin=last_latin,
                first_name_latin=first_latin,
                city=city,
                country=country,
                ema_id=self._unique_id(f"{10 + len(self.used_ids) % 80:02d}", 6),
            )
            self.people.append(_Person(player, {Discipline.MAHJONG}, rng.uniform(0.3, 1.5), rng.gauss(0.3, 1)))
        for person in self.people:
            person.player.fill_search_name()
        Player.objects.bulk_create([p.player for p in self.people], batch_size=500)
        for person in self.people:
            for discipline in person.disciplines:
                self.by_discipline[discipline].append(person)
        self.report.counts["players"] = len(self.people)
        self.say(f"Players: {len(self.people)} in {len({p.player.city for p in self.people})} cities.")

    def _bots(self) -> None:
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
        self.report.counts["bots"] = len(bots)

    # --- tournaments ---------------------------------------------------------------------------------------------

    def _pick(self, pool: list[_Person], count: int, city: str, local: float = 4.0) -> list[_Person]:
        """``count`` distinct players, the active and the local ones more likely (Efraimidis-Spirakis sampling)."""
        keyed = []
        for person in pool:
            weight = person.activity * (local if person.player.city == city else 1.0)
            keyed.append((self.rng.random() ** (1.0 / weight), id(person), person))
        keyed.sort(reverse=True)
        return [person for _, _, person in keyed[:count]]

    def _ranked(self, people: list[_Person], noise: float = 1.2) -> list[_Person]:
        """Final standing: better players tend to finish higher."""
        return sorted(people, key=lambda p: p.skill + self.rng.gauss(0, noise), reverse=True)

    def _guest(self) -> str:
        rng = self.rng
        if rng.random() < 0.3:
            return f"{feminine_surname(rng.choice(SURNAMES))} {rng.choice(FEMALE_NAMES)}"
        return f"{rng.choice(SURNAMES)} {rng.choice(MALE_NAMES)}"

    def _weekends(self, weekday: int = 5):
        """Every week's Saturday (or another weekday) from the start up to today."""
        day = self.start + datetime.timedelta(days=(weekday - self.start.weekday()) % 7)
        while day <= self.today:
            yield day
            day += datetime.timedelta(days=7)

    def _months(self):
        year, month = self.start.year, self.start.month
        while datetime.date(year, month, 1) <= self.today:
            yield year, month
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)

    def _day_in_month(self, year: int, month: int, weekday: int = 5) -> datetime.date:
        """A random Saturday (by default) of the month, not after today."""
        first = datetime.date(year, month, 1)
        day = first + datetime.timedelta(days=(weekday - first.weekday()) % 7 + 7 * self.rng.randrange(4))
        while day > self.today or day.month != month:
            day -= datetime.timedelta(days=7)
        return max(day, first)

    def _card_games(self) -> list[_Draft]:
        rng = self.rng
        pool = self.by_discipline[Discipline.CARD_GAMES]
        drafts: list[_Draft] = []
        formats = [CardFormat.CONSTRUCTED, CardFormat.LIMITED, CardFormat.SEALED, CardFormat.DRAFT]
        for saturday in self._weekends():
            if (
                saturday.month == 11 and 8 <= saturday.day <= 14
            ):  # the national championship, second weekend of November
                drafts.append(self._card_tournament(pool, saturday, "Москва", CardFormat.COMBINED, 16, size=40, days=2))
                continue
            events = 1 if rng.random() < 0.85 else 0
            events += rng.random() < 0.35
            for _ in range(events):
                k = rng.choices([1, 2, 4, 8], [60, 30, 7, 3])[0]
                size = round(rng.triangular(6, 40, 10)) if k < 4 else rng.randint(16, 40)
                day = saturday + datetime.timedelta(days=rng.choice([0, 0, 1]))
                if day > self.today:
                    day = saturday
                drafts.append(
                    self._card_tournament(pool, day, self._city(), rng.choices(formats, [45, 20, 20, 15])[0], k, size)
                )
        self.say(f"Card games: {len(drafts)} tournaments, {sum(len(d.rows) for d in drafts)} results.")
        return drafts

    def _card_tournament(self, pool, day, city, card_format, k, size, days=1) -> _Draft:
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
        people = self._pick(pool, min(size, len(pool)), city, local=2.0 if k >= 8 else 6.0)
        draft = _Draft(tournament, [(p, "", False, None) for p in self._ranked(people)])
        if k >= 4:  # from K = 4 on judges may not play (rules/gorbunov.md, "K")
            judges = [p for p in self._pick(pool, len(people) + 1, city) if p not in people]
            draft.judges = judges[:1]
        return draft

    def _mahjong(self) -> list[_Draft]:
        rng = self.rng
        pool = self.by_discipline[Discipline.MAHJONG]
        drafts: list[_Draft] = []
        months = list(self._months())
        # One or two championships with cut-offs, in the last months of the period (rules/mahjong.md, "stages").
        cut_offs = {months[-2]: [(10, 28), (10, 8)]}
        if len(months) > 12:
            cut_offs[months[len(months) // 2]] = [(5, 32), (5, 16), (5, 8), (5, 4)]
        for number, (year, month) in enumerate(months):
            if (year, month) in cut_offs:
                drafts.append(self._mahjong_cut_off(pool, year, month, cut_offs[(year, month)]))
            else:
                drafts.append(self._mahjong_offline(pool, year, month))
            if rng.random() < 0.4:
                drafts.append(self._mahjong_online(pool, year, month))
            if month in (5, 9) and number % 2 == 0:
                drafts.append(self._mahjong_abroad(pool, year, month))
        self.say(f"Mahjong: {len(drafts)} tournaments, {sum(len(d.rows) for d in drafts)} results.")
        return drafts

    def _mahjong_rows(self, people: list[_Person], size: int, hanchans: int, latin: bool = False):
        """Ranked rows of a field of ``size`` (a multiple of four): players, guests and up to three substitutes."""
        rng = self.rng
        substitutes = rng.choice([0, 0, 1, 2, 3])
        rows: list[tuple[_Person | None, str, bool, int | None]] = [
            (p, "", False, hanchans) for p in people[: size - substitutes]
        ]
        while len(rows) < size - substitutes:
            name = f"{rng.choice(FOREIGN_GUEST_SURNAMES)} {rng.choice(FOREIGN_GUEST_NAMES)}" if latin else self._guest()
            rows.append((None, name, False, hanchans))
        for number in range(substitutes):
            rows.append((None, f"Запасной {number + 1}", True, hanchans))
        skill = {id(row): (row[0].skill if row[0] else rng.gauss(-0.3, 1)) for row in rows}
        rows.sort(key=lambda row: skill[id(row)] + rng.gauss(0, 1.5), reverse=True)
        return rows

    def _mahjong_offline(self, pool, year, month) -> _Draft:
        rng = self.rng
        city = self._city()
        size = 4 * rng.randint(4, 20)
        hanchans = rng.choices([4, 5, 6, 7, 8, 10, 12], [10, 10, 25, 15, 25, 10, 5])[0]
        day = self._day_in_month(year, month)
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
        people = self._pick(pool, min(len(pool), size - rng.randint(0, max(1, size // 10))), city, local=3.0)
        return _Draft(tournament, self._mahjong_rows(people, size, hanchans))

    def _mahjong_online(self, pool, year, month) -> _Draft:
        rng = self.rng
        platform = rng.choice(["Mahjong Soul", "tenhou.net"])
        size = 4 * rng.randint(4, 12)
        hanchans = rng.choice([4, 5, 6, 8])
        restricted = rng.random() < 0.4
        day = self._day_in_month(year, month, weekday=6)
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
        people = self._pick(pool, min(len(pool), size), "")
        return _Draft(tournament, self._mahjong_rows(people, size, hanchans))

    def _mahjong_abroad(self, pool, year, month) -> _Draft:
        rng = self.rng
        country, city, city_latin = rng.choice(EMA_ABROAD)
        size = 4 * rng.randint(12, 20)
        day = self._day_in_month(year, month)
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
        russians = self._pick([p for p in pool if p.player.country == "RU"], rng.randint(2, 8), "")
        people = foreign + russians
        return _Draft(tournament, self._mahjong_rows(people, size, 8, latin=True))

    def _mahjong_cut_off(self, pool, year, month, stages: list[tuple[int, int]]) -> _Draft:
        """Players who reach stage n play the hanchans of stages 1..n; the field shrinks to the stage's players."""
        size = stages[0][1]
        total = sum(h for h, _ in stages)
        day = self._day_in_month(year, month)
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
        people = self._ranked(self._pick(pool, min(size, len(pool)), city, local=1.5))
        rows = [(p, "", False, None) for p in people]
        while len(rows) < size:
            rows.append((None, self._guest(), False, None))
        rows = [
            (person, name, sub, sum(h for h, players in stages if players >= place))
            for place, (person, name, sub, _) in enumerate(rows, start=1)
        ]
        return _Draft(tournament, rows, stages=stages)

    def _go(self) -> list[_Draft]:
        rng = self.rng
        pool = self.by_discipline[Discipline.GO]
        drafts = []
        for year, month in self._months():
            for _ in range(1 + (rng.random() < 0.5)):
                city = self._city()
                system = rng.choice([GoSystem.PROFS, GoSystem.FUS])
                fus = system == GoSystem.FUS
                rounds = rng.randint(5, 7)
                day = self._day_in_month(year, month)
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
                people = self._pick(pool, min(rng.randint(10, 40), len(pool)), city, local=5.0)
                drafts.append(_Draft(tournament, [(p, "", False, None) for p in self._ranked(people, noise=0.8)]))
        self.say(f"Go: {len(drafts)} tournaments, {sum(len(d.rows) for d in drafts)} results.")
        return drafts

    def _preferans(self) -> list[_Draft]:
        rng = self.rng
        pool = self.by_discipline[Discipline.PREFERANS]
        drafts = []
        for year, month in self._months():
            if month not in (3, 10):
                continue
            city = rng.choice(["Москва", "Санкт-Петербург", "Екатеринбург"])
            day = self._day_in_month(year, month, weekday=6)
            tournament = Tournament(
                discipline=Discipline.PREFERANS,
                name=f"Кубок «{rng.choice(['Сочинка', 'Мизер', 'Пуля'])}», {city}",
                start_date=day,
                end_date=day,
                city=city,
            )
            people = self._pick(pool, min(3 * rng.randint(3, 8), len(pool)), city, local=3.0)
            drafts.append(_Draft(tournament, [(p, "", False, None) for p in self._ranked(people, noise=2.0)]))
        self.say(f"Preferans: {len(drafts)} tournaments, {sum(len(d.rows) for d in drafts)} results.")
        return drafts

    # --- statuses and saving -------------------------------------------------------------------------------------

    def _statuses(self, drafts: list[_Draft]) -> None:
        """Everything approved by staff, except a few recent tournaments still with the organiser or awaiting staff."""
        recent = sorted(
            (d for d in drafts if (self.today - d.tournament.end_date).days <= 31 and not d.stages),
            key=lambda d: (d.tournament.end_date, d.tournament.name),
        )
        pending = self.rng.sample(recent, min(5, len(recent)))
        drafts_left = {id(d) for d in pending[:2]}
        submitted = {id(d) for d in pending[2:]}
        for draft in drafts:
            t = draft.tournament
            t.organiser = self.organiser
            if id(draft) in drafts_left:
                t.status = TournamentStatus.DRAFT
                continue
            t.submitted_at = self._moment(t.end_date, self.rng.randint(0, 3))
            if id(draft) in submitted:
                t.status = TournamentStatus.SUBMITTED
                continue
            t.status = TournamentStatus.APPROVED
            t.approved_at = self._moment(t.end_date, self.rng.randint(1, 7))
            t.approved_by = self.staff
            if t.accredited:
                t.accredited_by = self.staff
                t.accredited_at = self._moment(t.start_date, -self.rng.randint(7, 30))
        counts = {status: sum(d.tournament.status == status for d in drafts) for status in TournamentStatus.values}
        self.say("Statuses: " + ", ".join(f"{status} {n}" for status, n in counts.items()) + ".")

    def _moment(self, day: datetime.date, days_later: int) -> datetime.datetime:
        day = min(day + datetime.timedelta(days=days_later), self.today)
        naive = datetime.datetime.combine(day, datetime.time(10 + self.rng.randrange(10), self.rng.randrange(60)))
        return timezone.make_aware(naive, timezone.get_default_timezone()) if settings.USE_TZ else naive

    def _save(self, drafts: list[_Draft]) -> None:
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
        self.report.counts.update(tournaments=len(drafts), results=len(results), stages=len(stages))
