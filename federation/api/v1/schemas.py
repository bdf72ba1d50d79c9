"""The public API's answers, as schemas: the OpenAPI document at ``/api/v1/openapi.json`` is made of them, and the
schema fuzz test checks every answer against them."""

from __future__ import annotations

import builtins
import datetime
from typing import Literal

from ninja import Schema
from pydantic import Field

Language = Literal["ru", "en"]


class Page(Schema):
    count: int = Field(description="rows in all")
    page: int
    per_page: int
    pages: int


class PlayerRef(Schema):
    id: int
    name: str = Field(
        description="as the site shows it in the requested language: in English the Latin name the federation typed, "
        "else the Russian one in Latin letters (passport transliteration)"
    )
    city: str = Field(description="as stored (in Russian for a Russian city)")
    display_city: str = Field(
        default="", description="the city as the site shows it in the requested language (English: Latin letters)"
    )
    country: str
    url: str = Field(description="the player's page on the site")


class ListInfo(Schema):
    slug: str
    system: str = Field(description="gorbunov, mahjong-rr, mahjong-crr, mahjong-online, preferans, dirs")
    name: str
    dated: bool = Field(description="true: the list is published on dates (snapshots) and can be asked as of any date")
    weekly: bool = Field(description="true: published by the ISO week (the Monday)")
    latest: datetime.date | None = Field(description="the newest publication, for dated lists")
    url: str


class ListsOut(Schema):
    lists: list[ListInfo]


class Entry(Schema):
    rank: int
    player: PlayerRef
    rating: float
    delta: float | None = Field(description="the change since the previous publication; null for a newcomer")
    tournaments: int | None = Field(description="tournaments counted (games or deals for preferans and DIRS: null)")
    parts: dict[str, float | None] = Field(
        description="the rating's parts where the system has them: mahjong part_a and part_b; preferans "
        "max_rating and deals; DIRS games and acceleration; empty for Gorbunov"
    )


class ListOut(Schema):
    list: ListInfo
    as_of: datetime.date | None = Field(description="the date of the publication shown; null for a current leaderboard")
    week: str | None = Field(description="the ISO week of a weekly list's publication shown (2026-W10)")
    message: str = Field(description="why the list shown is not the one asked for, as the page says it; empty if it is")
    league: str | None = None
    paging: Page
    entries: list[Entry]


class Publication(Schema):
    date: datetime.date
    week: str | None
    computed_at: datetime.datetime


class DatesOut(Schema):
    list: ListInfo
    paging: Page
    dates: list[Publication]


class PlayersOut(Schema):
    paging: Page
    players: list[PlayerRef]


class SystemRating(Schema):
    system: str
    list: str = Field(description="the list's slug")
    list_name: str
    rating: float
    rank: int | None
    as_of: datetime.date | None
    details: dict[str, float | int | str | None] = Field(description="league, peak, games: what the system keeps")


class PlayerOut(PlayerRef):
    club: str = Field(description="as stored")
    club_id: int | None = Field(description="the club's id (/api/v1/clubs/{id}/); null without a club")
    display_club: str = Field(default="", description="the club's name as the site shows it in the requested language")
    latin_name: str
    ratings: list[SystemRating]


class HistoryItem(Schema):
    system: str
    list: str
    date: datetime.date | None
    before: float | None
    after: float
    delta: float | None
    tournament: int | None = Field(description="the tournament's id where the change comes from one")
    game: int | None = Field(description="the preferans game or DIRS club game")
    explanation: str = Field(description="the formula with the player's numbers, in the requested language")


class HistoryOut(Schema):
    player: PlayerRef
    language: Language
    paging: Page
    history: list[HistoryItem]


class TournamentRef(Schema):
    id: int
    name: str = Field(description="as stored (in Russian for a Russian tournament)")
    display_name: str = Field(
        default="",
        description="as the site shows it in the requested language: in English the English name the federation "
        "typed, else the Russian one in Latin letters (passport transliteration)",
    )
    discipline: str
    start_date: datetime.date
    end_date: datetime.date
    city: str = Field(description="as stored")
    display_city: str = Field(default="", description="the city as the site shows it in the requested language")
    country: str
    participants: int
    url: str


class TournamentsOut(Schema):
    paging: Page
    tournaments: list[TournamentRef]


class PlayerTournament(Schema):
    tournament: TournamentRef
    place: int
    of: int | None = Field(description="results in the tournament")


class PlayerTournamentsOut(Schema):
    player: PlayerRef
    paging: Page
    tournaments: list[PlayerTournament]


class ClubRef(Schema):
    id: int
    name: str = Field(description="as stored")
    display_name: str = Field(
        default="",
        description="as the site shows it in the requested language: in English the English name the federation "
        "typed, else the Russian one in Latin letters (passport transliteration)",
    )
    city: str = Field(description="as stored")
    display_city: str = Field(default="", description="the city as the site shows it in the requested language")
    country: str
    players: int = Field(description="players who name the club in their profile")
    url: str = Field(description="the club's page on the site")


class ClubsOut(Schema):
    paging: Page
    clubs: list[ClubRef]


class ClubRating(Schema):
    player: PlayerRef
    rating: float
    rank: int | None = Field(description="the player's rank in the whole list (dated lists); null where none is kept")
    label: str = Field(description="DIRS: kyu/dan; preferans: the league; else empty")
    season: float | None = Field(
        description="the change this season (since 1 January): a dated list's current rating minus the one in its "
        "last publication before 1 January (null: not in the list then); DIRS and preferans: what this season's "
        "games changed"
    )


class ClubList(Schema):
    system: str
    list: str = Field(description="the list's slug")
    list_name: str
    as_of: datetime.date | None = Field(description="the publication shown, for dated lists")
    # ``builtins.list``: the field ``list`` above hides the builtin in the class's namespace.
    players: builtins.list[ClubRating] = Field(description="the club's players in this list, best first")


class ClubOut(ClubRef):
    meeting_place: str = Field(description="where and when the club meets, as federation staff entered it")
    contact: str
    website: str
    season_start: datetime.date
    members: list[PlayerRef] = Field(description="the club's players, by name")
    ratings: list[ClubList] = Field(description="every active list one of its players holds a rating in")


class ClubTournament(Schema):
    tournament: TournamentRef
    club_players: int = Field(description="the club's players who played it")
    best_place: int = Field(description="the best place one of them took")


class ClubTournamentsOut(Schema):
    club: ClubRef
    paging: Page
    tournaments: list[ClubTournament]


class ResultRow(Schema):
    place: int
    player: PlayerRef | None = Field(description="null for a participant without a profile")
    name: str


class ListStatus(Schema):
    list: str
    list_name: str
    counts: bool
    reasons: list[str] = Field(description="why it does not count (yet), in the requested language")
    changes: int = Field(description="rating changes the tournament made in this list")


class GoRound(Schema):
    number: int
    pairings: list[dict[str, int | float | str | bool | None]]


class TournamentOut(TournamentRef):
    status: str
    details: dict[str, int | float | str | bool | None]
    results: list[ResultRow]
    lists: list[ListStatus]
    go_rounds: list[GoRound] | None = Field(description="Go tournaments: every round's pairings and results")
    go_standings: list[dict[str, int | float | str | bool | None]] | None


class ErrorItem(Schema):
    field: str
    message: str


class ErrorsOut(Schema):
    errors: list[ErrorItem]


class CalendarEntry(Schema):
    id: int
    name: str
    discipline: str
    start_date: datetime.date
    end_date: datetime.date
    city: str
    country: str
    venue: str
    schedule: Literal["scheduled", "moved", "cancelled"] = Field(description="whether it takes place as announced")
    schedule_note: str = Field(description="what changed, when moved or cancelled")
    registration_open: bool
    registered: int = Field(description="players registered (their e-mail confirmed)")
    waiting: int = Field(description="players on the waiting list")
    max_players: int | None = Field(description="the field limit, null when none")
    url: str = Field(description="the tournament's page in the calendar")
    ics: str = Field(description="the tournament as an iCalendar file")
    results_url: str | None = Field(description="its results' page, once approved")


class CalendarOut(Schema):
    paging: Page
    tournaments: list[CalendarEntry]


class CalendarRegistration(Schema):
    name: str
    player: PlayerRef | None = Field(description="null for a newcomer not yet matched to the registry")
    status: Literal["registered", "waiting"]
    rating: float | None = Field(description="the player's current rating in the discipline's main list")


class CalendarTournamentOut(CalendarEntry):
    description: str = Field(description="in the requested language where the organiser wrote it, else Russian")
    rules: str
    contact: str = Field(description="the organiser's public contact")
    registration_deadline: datetime.date | None = Field(description="the last day to register")
    registrations: list[CalendarRegistration] = Field(description="never an e-mail address")
