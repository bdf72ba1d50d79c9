"""What every part of the demo shares: the seeded generators, the anchor date and the people made so far.

All choices are drawn in a fixed order from one ``random.Random(seed)`` while the people and tournaments are made
(``Federation``), and from a second generator seeded from the same seed while the ratings are fed (``Feed``), so the
tournaments stay as they are whatever the rating steps draw.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import timezone

from federation.demo.names import CITIES, FEMALE_NAMES, MALE_NAMES, SURNAMES, feminine_surname
from federation.models import Club, Player
from tournaments.models import Discipline, Tournament

Say = Callable[[str], None]


@dataclass
class DemoReport:
    created: bool
    counts: dict[str, int] = field(default_factory=dict)
    #: (username, password or "" when it no longer signs in, role)
    logins: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class Person:
    """A generated player before and after it is saved; the attributes drive who plays where and how well."""

    player: Player
    disciplines: set[str]
    activity: float
    skill: float


@dataclass
class Draft:
    """A tournament with its results (person or guest name, substitute flag, hanchans played) before saving."""

    tournament: Tournament
    rows: list[tuple[Person | None, str, bool, int | None]] = field(default_factory=list)
    stages: list[tuple[int, int]] = field(default_factory=list)
    judges: list[Person] = field(default_factory=list)


class Federation:
    """The federation being generated: its clock, its people by discipline and the report of what was made."""

    def __init__(self, *, seed: int, today: datetime.date, players: int, years: int, say: Say) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.today = today
        self.start = datetime.date(today.year - years + 1, 1, 1)
        self.player_count = players
        self.say = say
        self.people: list[Person] = []
        self.by_discipline: dict[str, list[Person]] = {d: [] for d in Discipline.values}
        self.clubs: dict[str, list[Club]] = {}
        self.report = DemoReport(created=True)
        self.organiser = self.staff = None

    def city(self) -> str:
        names, weights = zip(*CITIES, strict=True)
        return self.rng.choices(names, weights)[0]

    def pick(self, pool: list[Person], count: int, city: str, local: float = 4.0) -> list[Person]:
        """``count`` distinct players, the active and the local ones more likely (Efraimidis-Spirakis sampling)."""
        keyed = []
        for person in pool:
            weight = person.activity * (local if person.player.city == city else 1.0)
            keyed.append((self.rng.random() ** (1.0 / weight), id(person), person))
        keyed.sort(reverse=True)
        return [person for _, _, person in keyed[:count]]

    def ranked(self, people: list[Person], noise: float = 1.2) -> list[Person]:
        """Final standing: better players tend to finish higher."""
        return sorted(people, key=lambda p: p.skill + self.rng.gauss(0, noise), reverse=True)

    def guest(self) -> str:
        rng = self.rng
        if rng.random() < 0.3:
            return f"{feminine_surname(rng.choice(SURNAMES))} {rng.choice(FEMALE_NAMES)}"
        return f"{rng.choice(SURNAMES)} {rng.choice(MALE_NAMES)}"

    def weekends(self, weekday: int = 5) -> Iterator[datetime.date]:
        """Every week's Saturday (or another weekday) from the start up to today."""
        day = self.start + datetime.timedelta(days=(weekday - self.start.weekday()) % 7)
        while day <= self.today:
            yield day
            day += datetime.timedelta(days=7)

    def months(self) -> Iterator[tuple[int, int]]:
        year, month = self.start.year, self.start.month
        while datetime.date(year, month, 1) <= self.today:
            yield year, month
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)

    def day_in_month(self, year: int, month: int, weekday: int = 5) -> datetime.date:
        """A random Saturday (by default) of the month, not after today."""
        first = datetime.date(year, month, 1)
        day = first + datetime.timedelta(days=(weekday - first.weekday()) % 7 + 7 * self.rng.randrange(4))
        while day > self.today or day.month != month:
            day -= datetime.timedelta(days=7)
        return max(day, first)


@dataclass(frozen=True)
class Member:
    """A demo player with the hidden strength that decides games and whists (``skill``, about N(0, 1))."""

    player: Player
    skill: float
    activity: float = 1.0


class Feed:
    """The rating steps' state: their own generator, the demo's users and the counts they add to the report."""

    def __init__(self, federation: Federation) -> None:
        self.seed = federation.seed
        self.rng = random.Random(federation.seed * 7919 + 17)
        self.today = federation.today
        self.start = federation.start
        self.organiser = federation.organiser
        self.staff = federation.staff
        self.counts = federation.report.counts
        self.members = {
            discipline: [Member(p.player, p.skill, p.activity) for p in people]
            for discipline, people in federation.by_discipline.items()
        }
        self.dirs_members: list[Member] = []


def aware(moment: datetime.datetime) -> datetime.datetime:
    """A wall-clock moment in the federation's time zone, as the site stores it."""
    return timezone.make_aware(moment, timezone.get_default_timezone()) if settings.USE_TZ else moment
