"""The director's backup file: the whole state of a tournament at any round, downloaded, and loaded again as a new
tournament (issue 27; OpenGotha keeps a tournament in one file the same way).

**The file** is JSON (UTF-8), ``{"format": "go-tournament-backup", "version": 1, ...}``:
``tournament`` (name, dates, place, the system and every option, komi, the club by id and name, the EGD class, the
main time), ``registrations`` (each with its ``key``, the member it is (id and name) or none, the surname and given
name in both alphabets, rating and where it came from, country, club, EGD PIN, first round, withdrawal, and
``absences`` as ``[round, by request]``), ``rounds`` (number, seed, status, when paired and published, whether
complete, the rules broken and the changes by hand, every board with both players' keys, their levels, stones,
komi, result, who entered it and when; the byes), and ``log`` (the director's record). Standings are not stored:
they follow from the rest, and are computed again on loading. It is the director's: it names who entered what.

**Loading** never overwrites: the file becomes a new tournament, a draft of whoever loads it (``restored from``
in its record), so a director can go back to the state of any round and keep the tournament they had. A member is
linked again when the site has one of that id with the same name; otherwise the registration keeps the name typed
(and the loader is told). A DIRS tournament is loaded without rating its games in the club rating again (they are
in it already). Everything is checked before anything is saved: each mistake names its place in the file
(``rounds[2].boards[0].white``); nothing is saved while any is left.
"""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from federation.models import Club, Player
from ratings.dirs.models import DIRS_RATING_MAX
from tournaments import pairing
from tournaments.models import GoSystem

from ..models import (
    TOURNAMENT_RATING_MAX,
    Absence,
    Board,
    BoardResult,
    Bye,
    DirectorLog,
    EgdClass,
    GoTournament,
    RatingSource,
    Registration,
    Round,
    RoundStatus,
)
from ..names import join_name
from ..selectors import tournament_data
from .common import GoError, log
from .registrations import go_tournament_create
from .results import complete_round

FORMAT = "go-tournament-backup"
VERSION = 1

#: The tournament's fields in the file (``Tournament`` and ``GoTournament``), with how each is checked.
TOURNAMENT_FIELDS = ("name", "start_date", "end_date", "city", "country", "system", "rounds")
OPTION_FIELDS = ("half_stone", "acceleration", "draws_allowed", "tiebreak", "rate_in_club")
KOMI_FIELDS = ("komi_normal", "komi_none", "komi_reverse")


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def go_backup(*, go: GoTournament) -> dict[str, Any]:
    """The backup document of a tournament as it stands (see the module)."""
    t = go.tournament
    data = tournament_data(go=go)
    members = Player.objects.in_bulk([r.player_id for r in data.registrations if r.player_id])
    absences: dict[int, list] = {}
    for reg_id, number, requested in Absence.objects.filter(registration__tournament=go).values_list(
        "registration_id", "round_number", "requested"
    ):
        absences.setdefault(reg_id, []).append([number, requested])
    users = dict(get_user_model().objects.values_list("pk", "username"))
    registrations = []
    for reg in data.registrations:
        member = members.get(reg.player_id)
        registrations.append(
            {
                "key": reg.key,
                "player": {"id": member.pk, "name": member.full_name} if member else None,
                "surname": reg.surname,
                "given_name": reg.given_name,
                "surname_latin": reg.surname_latin,
                "given_name_latin": reg.given_name_latin,
                "rating": reg.rating,
                "rating_source": reg.rating_source,
                "country": reg.country,
                "club_name": reg.club_name,
                "egd_pin": reg.egd_pin,
                "first_round": reg.first_round,
                "withdrawn_after": reg.withdrawn_after,
                "absences": sorted(absences.get(reg.pk, [])),
            }
        )
    rounds = []
    for rnd in data.rounds:
        rounds.append(
            {
                "number": rnd.number,
                "seed": rnd.seed,
                "status": rnd.status,
                "paired_at": _when(rnd.paired_at),
                "published_at": _when(rnd.published_at),
                "completed": rnd.completed,
                "issues": rnd.issues,
                "overrides": rnd.overrides,
                "boards": [
                    {
                        "number": b.number,
                        "white": f"r{b.white_id}",
                        "black": f"r{b.black_id}",
                        "white_level": b.white_level,
                        "black_level": b.black_level,
                        "handicap": b.handicap,
                        "komi_kind": b.komi_kind,
                        "komi": str(b.komi),
                        "result": b.result,
                        "entered_by": users.get(b.entered_by_id, ""),
                        "entered_at": _when(b.entered_at),
                    }
                    for b in data.boards.get(rnd.pk, [])
                ],
                "byes": [f"r{bye.registration_id}" for bye in data.byes.get(rnd.pk, [])],
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "saved_at": timezone.now().isoformat(timespec="seconds"),
        "tournament": {
            "id": t.pk,
            "name": t.name,
            "start_date": t.start_date.isoformat(),
            "end_date": t.end_date.isoformat(),
            "city": t.city,
            "country": t.country,
            "system": t.go_system,
            "rounds": t.rounds,
            "half_stone": t.half_stone,
            "acceleration": t.acceleration,
            "draws_allowed": t.draws_allowed,
            "tiebreak": go.tiebreak,
            "rate_in_club": go.rate_in_club,
            "komi_normal": str(go.komi_normal),
            "komi_none": str(go.komi_none),
            "komi_reverse": str(go.komi_reverse),
            "club": {"id": go.club_id, "name": go.club.name} if go.club_id else None,
            "egd_class": go.egd_class,
            "time_minutes": go.time_minutes,
        },
        "registrations": registrations,
        "rounds": rounds,
        "log": [
            {
                "round_number": entry.round_number,
                "at": _when(entry.at),
                "username": entry.username,
                "action": entry.action,
                "text_en": entry.text_en,
                "text_ru": entry.text_ru,
            }
            for entry in DirectorLog.objects.filter(tournament=go).order_by("at", "id")
        ],
    }


# --- loading ---------------------------------------------------------------------------------------------------------


class _Checker:
    """Collects every mistake of a document with its place in it; reads typed values."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def fail(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}")

    def obj(self, value: Any, path: str) -> dict:
        if not isinstance(value, dict):
            self.fail(path, _("is not an object"))
            return {}
        return value

    def items(self, value: Any, path: str) -> list:
        if not isinstance(value, list):
            self.fail(path, _("is not a list"))
            return []
        return value

    def text(self, data: dict, key: str, path: str, *, limit: int, required: bool = False) -> str:
        value = data.get(key, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            self.fail(f"{path}.{key}", _("is not text"))
            return ""
        if len(value) > limit:
            self.fail(f"{path}.{key}", _("is longer than %(n)s characters") % {"n": limit})
            return ""
        if required and not value.strip():
            self.fail(f"{path}.{key}", _("is missing"))
        return value

    def whole(self, data: dict, key: str, path: str, *, low: int, high: int, optional: bool = False) -> int | None:
        value = data.get(key)
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(f"{path}.{key}", _("is not a whole number from %(low)s to %(high)s") % {"low": low, "high": high})
            return None
        return value

    def flag(self, data: dict, key: str, path: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            self.fail(f"{path}.{key}", _("is neither true nor false"))
            return False
        return value

    def date(self, data: dict, key: str, path: str) -> datetime.date | None:
        value = data.get(key)
        try:
            return datetime.date.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            pass
        self.fail(f"{path}.{key}", _("is not a date such as 2026-03-07"))
        return None

    def moment(self, data: dict, key: str, path: str) -> datetime.datetime | None:
        value = data.get(key)
        if value is None:
            return None
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None:
            self.fail(f"{path}.{key}", _("is not a date and time"))
        return parsed

    def choice(self, data: dict, key: str, path: str, choices) -> str:
        value = data.get(key, "")
        if value not in choices:
            self.fail(
                f"{path}.{key}", _("is not one of %(choices)s") % {"choices": ", ".join(c or '""' for c in choices)}
            )
            return ""
        return value

    def komi(self, data: dict, key: str, path: str) -> Decimal:
        try:
            value = Decimal(str(data.get(key)))
        except (InvalidOperation, ValueError):
            value = Decimal(-1)
        if not value.is_finite() or not Decimal(0) <= value <= Decimal("99.5"):
            self.fail(f"{path}.{key}", _("is not a number of komi points from 0 to 99.5"))
            return Decimal("6.5")
        return value.quantize(Decimal("0.1"))


def _is_note(item: Any) -> bool:
    """A change by hand as the pages show it: its text in both languages."""
    return isinstance(item, dict) and all(isinstance(item.get(k), str) for k in ("en", "ru"))


def _is_issue(item: Any) -> bool:
    """A broken rule as the pages and the services read it (a rule, its source, its text in both languages)."""
    return (
        _is_note(item)
        and isinstance(item.get("rule"), str)
        and item.get("source") in ("engine", "hand", "correction")
        and isinstance(item.get("players", []), list)
    )


def _check(document: Any) -> dict:
    """The document read and checked whole; ``GoError`` with every mistake found (see the module)."""
    c = _Checker()
    doc = c.obj(document, "document")
    if doc and (doc.get("format") != FORMAT or doc.get("version") != VERSION):
        raise GoError(
            "file",
            _("This is not a backup file of a Go tournament (format %(f)s, version %(v)s).")
            % {
                "f": FORMAT,
                "v": VERSION,
            },
        )
    t = c.obj(doc.get("tournament"), "tournament")
    plan: dict[str, Any] = {"tournament": {}, "registrations": [], "rounds": [], "log": []}
    tour = plan["tournament"]
    tour["name"] = c.text(t, "name", "tournament", limit=200, required=True)
    tour["start_date"] = c.date(t, "start_date", "tournament")
    tour["end_date"] = c.date(t, "end_date", "tournament")
    tour["city"] = c.text(t, "city", "tournament", limit=100)
    tour["country"] = c.text(t, "country", "tournament", limit=2) or "RU"
    tour["system"] = c.choice(t, "system", "tournament", GoSystem.values)
    rounds_total = c.whole(t, "rounds", "tournament", low=1, high=30) or 1
    tour["rounds"] = rounds_total
    for key in OPTION_FIELDS:
        tour[key] = c.flag(t, key, "tournament")
    for key in KOMI_FIELDS:
        tour[key] = c.komi(t, key, "tournament")
    tour["time_minutes"] = c.whole(t, "time_minutes", "tournament", low=1, high=600) or 60
    tour["egd_class"] = c.choice(t, "egd_class", "tournament", ["", *EgdClass.values])
    club = t.get("club")
    tour["club"] = None
    if isinstance(club, dict) and isinstance(club.get("id"), int):
        tour["club"] = Club.objects.filter(pk=club["id"], name=club.get("name")).first()
    dirs_scale = tour["system"] == GoSystem.DIRS
    top = DIRS_RATING_MAX if dirs_scale else TOURNAMENT_RATING_MAX
    keys: set[str] = set()
    for i, item in enumerate(c.items(doc.get("registrations"), "registrations")):
        path = f"registrations[{i}]"
        r = c.obj(item, path)
        key = r.get("key")
        if not isinstance(key, str) or not key or key in keys:
            c.fail(f"{path}.key", _("is missing or given twice"))
            continue
        keys.add(key)
        reg = {"key": key, "player": None}
        member = r.get("player")
        if isinstance(member, dict) and isinstance(member.get("id"), int):
            found = Player.objects.filter(pk=member["id"], is_bot=False).first()
            if found is not None and found.full_name == member.get("name"):
                reg["player"] = found
            else:
                reg["unlinked"] = member.get("name") or ""
        for field, limit in (("surname", 100), ("given_name", 100), ("surname_latin", 100), ("given_name_latin", 100)):
            reg[field] = c.text(r, field, path, limit=limit, required=field == "surname")
        for parts in (("surname", "given_name"), ("surname_latin", "given_name_latin")):
            if len(join_name(reg[parts[0]], reg[parts[1]])) > 200:
                c.fail(f"{path}.{parts[1]}", _("is longer than %(n)s characters") % {"n": 200 - len(reg[parts[0]])})
        reg["rating"] = c.whole(r, "rating", path, low=0, high=top)
        reg["rating_source"] = c.choice(r, "rating_source", path, RatingSource.values)
        reg["country"] = c.text(r, "country", path, limit=2) or "RU"
        reg["club_name"] = c.text(r, "club_name", path, limit=100)
        reg["egd_pin"] = c.text(r, "egd_pin", path, limit=20)
        reg["first_round"] = c.whole(r, "first_round", path, low=1, high=rounds_total) or 1
        reg["withdrawn_after"] = c.whole(r, "withdrawn_after", path, low=0, high=rounds_total, optional=True)
        reg["absences"] = []
        for k, absence in enumerate(c.items(r.get("absences", []), f"{path}.absences")):
            if (
                not isinstance(absence, list)
                or len(absence) != 2
                or not isinstance(absence[0], int)
                or not 1 <= absence[0] <= rounds_total
                or not isinstance(absence[1], bool)
            ):
                c.fail(f"{path}.absences[{k}]", _("is not [a round number, true or false]"))
                continue
            reg["absences"].append((absence[0], absence[1]))
        plan["registrations"].append(reg)
    numbers: set[int] = set()
    for i, item in enumerate(c.items(doc.get("rounds"), "rounds")):
        path = f"rounds[{i}]"
        r = c.obj(item, path)
        number = c.whole(r, "number", path, low=1, high=rounds_total)
        if number is None or number in numbers:
            c.fail(f"{path}.number", _("is missing, given twice or off the tournament's rounds"))
            continue
        numbers.add(number)
        rnd = {
            "number": number,
            "seed": c.whole(r, "seed", path, low=0, high=2**62) or 0,
            "status": c.choice(r, "status", path, RoundStatus.values),
            "paired_at": c.moment(r, "paired_at", path) or timezone.now(),
            "published_at": c.moment(r, "published_at", path),
            "completed": c.flag(r, "completed", path),
            "issues": [x for x in c.items(r.get("issues", []), f"{path}.issues") if _is_issue(x)],
            "overrides": [x for x in c.items(r.get("overrides", []), f"{path}.overrides") if _is_note(x)],
            "boards": [],
            "byes": [],
        }
        seen: set[str] = set()

        def player(value: Any, where: str, seen: set[str] = seen) -> str | None:
            if value not in keys:
                c.fail(where, _("is not a registration of the file"))
                return None
            if value in seen:
                c.fail(where, _("plays twice in the round"))
                return None
            seen.add(value)
            return value

        board_numbers: set[int] = set()
        for j, b_item in enumerate(c.items(r.get("boards", []), f"{path}.boards")):
            where = f"{path}.boards[{j}]"
            b = c.obj(b_item, where)
            board = {
                "number": c.whole(b, "number", where, low=1, high=10_000),
                "white": player(b.get("white"), f"{where}.white"),
                "black": player(b.get("black"), f"{where}.black"),
                "white_level": c.whole(b, "white_level", where, low=-1000, high=10_000),
                "black_level": c.whole(b, "black_level", where, low=-1000, high=10_000),
                "handicap": c.whole(b, "handicap", where, low=0, high=pairing.MAX_STONES),
                "komi_kind": c.choice(b, "komi_kind", where, pairing.KOMI_KINDS),
                "komi": c.komi(b, "komi", where),
                "result": c.choice(b, "result", where, BoardResult.values),
                "entered_by": c.text(b, "entered_by", where, limit=150),
                "entered_at": c.moment(b, "entered_at", where),
            }
            if board["number"] in board_numbers:
                c.fail(f"{where}.number", _("is given twice in the round"))
            board_numbers.add(board["number"])
            if board["result"] == BoardResult.DRAW and not tour["draws_allowed"]:
                c.fail(f"{where}.result", _("a draw, but the tournament does not allow draws"))
            if rnd["completed"] and not board["result"]:
                c.fail(f"{where}.result", _("is missing in a round marked complete"))
            if rnd["status"] == RoundStatus.DRAFT and board["result"]:
                c.fail(f"{where}.result", _("a result in a round not published"))
            rnd["boards"].append(board)
        for j, key in enumerate(c.items(r.get("byes", []), f"{path}.byes")):
            who = player(key, f"{path}.byes[{j}]")
            if who:
                rnd["byes"].append(who)
        plan["rounds"].append(rnd)
    ordered = sorted(numbers)
    if ordered != list(range(1, len(ordered) + 1)):
        c.fail("rounds", _("the rounds are not 1, 2, 3... in order"))
    for i, item in enumerate(c.items(doc.get("log", []), "log")):
        entry = c.obj(item, f"log[{i}]")
        plan["log"].append(
            {
                "round_number": entry.get("round_number") if isinstance(entry.get("round_number"), int) else None,
                "at": c.moment(entry, "at", f"log[{i}]") or timezone.now(),
                "username": c.text(entry, "username", f"log[{i}]", limit=150),
                "action": c.text(entry, "action", f"log[{i}]", limit=20),
                "text_en": c.text(entry, "text_en", f"log[{i}]", limit=10_000),
                "text_ru": c.text(entry, "text_ru", f"log[{i}]", limit=10_000),
            }
        )
    if tour["start_date"] and tour["end_date"] and tour["end_date"] < tour["start_date"]:
        c.fail("tournament.end_date", _("is before the start date"))
    if c.errors:
        raise GoError("file", "; ".join(c.errors[:20]) + (" …" if len(c.errors) > 20 else ""))
    return plan


@transaction.atomic
def go_backup_load(*, document: Any, user: AbstractBaseUser, filename: str = "") -> tuple[GoTournament, list[str]]:
    """A new tournament from a backup document (see the module), all or nothing; and what the loader should know
    (members not linked again)."""
    plan = _check(document)
    t = plan["tournament"]
    go = go_tournament_create(
        user=user,
        name=t["name"],
        start_date=t["start_date"],
        end_date=t["end_date"],
        city=t["city"],
        country=t["country"],
        system=t["system"],
        rounds=t["rounds"],
        half_stone=t["half_stone"],
        acceleration=t["acceleration"],
        draws_allowed=t["draws_allowed"],
        tiebreak=t["tiebreak"],
        komi_normal=t["komi_normal"],
        komi_none=t["komi_none"],
        komi_reverse=t["komi_reverse"],
        rate_in_club=False if t["system"] == GoSystem.DIRS else t["rate_in_club"],
        club=t["club"],
        time_minutes=t["time_minutes"],
    )
    if t["egd_class"]:
        go.egd_class = t["egd_class"]
        go.save(update_fields=["egd_class"])
    notes = []
    pks: dict[str, int] = {}
    for reg in plan["registrations"]:
        member = reg["player"]
        if reg.get("unlinked"):
            notes.append(
                _("%(name)s was a member on the site the file comes from: registered by the name in the file.")
                % {"name": reg["unlinked"]}
            )
        registration = Registration(
            tournament=go,
            player=member,
            surname=reg["surname"],
            given_name=reg["given_name"],
            surname_latin=reg["surname_latin"],
            given_name_latin=reg["given_name_latin"],
            name=join_name(reg["surname"], reg["given_name"]),
            name_latin=join_name(reg["surname_latin"], reg["given_name_latin"]),
            rating=reg["rating"],
            rating_source=reg["rating_source"],
            country=reg["country"].upper(),
            club_name=reg["club_name"],
            egd_pin=reg["egd_pin"],
            first_round=reg["first_round"],
            withdrawn_after=reg["withdrawn_after"],
        )
        twice = (
            Registration.objects.filter(tournament=go, player=member)
            if member is not None
            else Registration.objects.filter(tournament=go, name__iexact=registration.name, player=None)
        )
        if twice.exists():
            raise GoError("file", _("%(name)s is registered twice in the file.") % {"name": registration.name})
        registration.save()
        pks[reg["key"]] = registration.pk
        Absence.objects.bulk_create(
            [Absence(registration=registration, round_number=n, requested=r) for n, r in reg["absences"]]
        )
    users = dict(get_user_model().objects.values_list("username", "pk"))
    for rnd in plan["rounds"]:
        go_round = Round.objects.create(
            tournament=go,
            number=rnd["number"],
            seed=rnd["seed"],
            status=rnd["status"],
            paired_at=rnd["paired_at"],
            published_at=rnd["published_at"],
            completed=False,
            issues=rnd["issues"],
            overrides=rnd["overrides"],
        )
        Board.objects.bulk_create(
            [
                Board(
                    round=go_round,
                    number=b["number"],
                    white_id=pks[b["white"]],
                    black_id=pks[b["black"]],
                    white_level=b["white_level"],
                    black_level=b["black_level"],
                    handicap=b["handicap"],
                    komi_kind=b["komi_kind"],
                    komi=b["komi"],
                    result=b["result"],
                    entered_by_id=users.get(b["entered_by"]),
                    entered_at=b["entered_at"],
                    version=1 if b["result"] else 0,
                )
                for b in rnd["boards"]
            ]
        )
        Bye.objects.bulk_create([Bye(round=go_round, registration_id=pks[key]) for key in rnd["byes"]])
        if rnd["completed"]:
            complete_round(go_round)
    DirectorLog.objects.bulk_create(
        [
            DirectorLog(
                tournament=go,
                round_number=entry["round_number"],
                at=entry["at"],
                user_id=users.get(entry["username"]),
                username=entry["username"],
                action=entry["action"],
                text_en=entry["text_en"],
                text_ru=entry["text_ru"],
            )
            for entry in plan["log"]
        ]
    )
    source = filename or "a backup file"
    text = {"en": f"restored from {source}", "ru": f"восстановлен из {filename or 'резервной копии'}"}
    log(go, user, "restore", text)
    return go, notes
