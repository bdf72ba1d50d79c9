"""A finished self-handicap tournament (PROFS / FUS) in and out as a ``selfhandicap`` document of ``manage.py rate``
(``ratings.history``, `RATE_CLI.md`, `rules/go.md` part 1).

Import: the whole document is checked first (every error by path); then, in one transaction, the players (the
document's ids become their federation ids), the tournament with its options, a registration per player with the
rating given, the absences, and every round as played (boards with the levels before the round, the handicap and
komi played, the results; byes), each round completed, so the site stores the standings the engine computes, as for
a tournament run on the site. ``show_list selfhandicap`` prints those stored standings as ``rate`` prints them;
``export_history selfhandicap`` writes the tournament back as the same kind of document.

**Decisions** where the issue and the rules are silent:
- Only a **finished** tournament is imported: ``games`` holds every one of ``rounds`` rounds, and ``pair_next`` is
  refused (``rate`` itself refuses it once every round is played). So ``show_list`` never prints ``next_round``; a
  tournament still running on the site is shown after its last complete round, its next round being paired on the
  site by the director (with changes by hand that ``rate`` cannot know).
- The tournament's optional ``id`` becomes its federation id; without one, the id is ``sh-`` and the first 16 hex
  digits of the SHA-256 of the tournament's content (options, players, rounds as played), so importing the same
  file twice still changes nothing. A tournament on the site under that id with other players or results is
  refused (the site's record is kept: correct it on the tournament's pages).
- Optional ``name`` (default ``Турнир <id>``), ``date`` (start and end date; default: the day of the import) and
  ``city``; a player's ``name``, ``name_latin``, ``city``, ``club`` and ``country`` as in every history document.
- Ratings are whole numbers on the tournament scale, 0..3000, as a registration holds them (``rate`` would take
  any number); komi amounts at most 99.5 in steps of 0.1; 1 to 30 rounds, as the tournament form allows.
- The system is PROFS when neither the half-stone step nor acceleration is on, FUS otherwise (the options are
  stored as given either way). Imported tournaments are not rated in the DIRS club rating.
- An imported tournament is finished history entered by federation staff: it is approved as it is imported (by the
  staff member who imported it; nobody from the command line), so it shows among the public tournaments at once,
  as an imported Gorbunov tournament does.
- The export writes a game's ``handicap`` and ``komi`` only where they differ from the table's for the levels
  (a director's change by hand), each player's ``name`` (the standings list players sharing a place by name), and
  a player registered by a typed name only, not a member, as ``reg-<registration id>``.
- ``show_list`` without ``--tournament`` shows the newest finished tournament (by end date, then the newest
  created); ``--as-of DATE``, the newest finished by that date.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from federation.models import Player
from ratings.engines.common import EngineError
from ratings.history import (
    SITE_PREFIX,
    HistoryError,
    ImportReport,
    document_tournament_id,
    people_entries,
    player_ids_map,
    players_ensure,
)
from ratings.progress import Progress
from tournaments import pairing
from tournaments.models import Discipline, GoSystem, Tournament, TournamentStatus

from .history_document import NAME_MAX, SYSTEM, Plan, check_document, fingerprint
from .models import (
    Absence,
    Board,
    BoardResult,
    Bye,
    GoTournament,
    Round,
    RoundStatus,
    StandingRow,
)
from .selectors import tournament_data
from .services import go_registration_add, go_tournament_create
from .services.common import GoError, log, registration_pk
from .services.results import complete_round

TYPED_PREFIX = "reg-"


def _site_tournament(document_id: str) -> GoTournament | None:
    found = GoTournament.objects.select_related("tournament").filter(
        tournament__discipline=Discipline.GO, tournament__external_id=document_id
    )
    go = found.first()
    if go is None and document_id.startswith(SITE_PREFIX) and document_id[len(SITE_PREFIX) :].isdigit():
        go = (
            GoTournament.objects.select_related("tournament")
            .filter(pk=int(document_id[len(SITE_PREFIX) :]), tournament__external_id="")
            .first()
        )
    return go


def _check(doc: Any) -> Plan:
    plan = check_document(doc)
    go = _site_tournament(plan.id)
    if go is not None:
        if go.tournament.go_system == GoSystem.DIRS:
            raise HistoryError([EngineError("id", f"{plan.id!r} is a DIRS tournament on the site")])
        site = check_document(_document(go))
        if fingerprint(site) != fingerprint(plan):
            raise HistoryError(
                [
                    EngineError(
                        "id",
                        f"tournament {plan.id!r} is on the site with other players or results; the site's record "
                        "is kept (correct it on the tournament's pages)",
                    )
                ]
            )
        plan.known = go
    return plan


# --- the door's names -----------------------------------------------------------------------------------------------


def selfhandicap_history_check(*, doc: dict[str, Any], rating_list=None) -> dict[str, int]:
    plan = _check(doc)
    return {
        "players": len(plan.entrants),
        "tournaments": 1,
        "new tournaments": 0 if plan.known else 1,
        "rounds": plan.options.rounds,
        "games": plan.boards,
        "byes": plan.byes,
    }


def selfhandicap_history_import(
    *,
    doc: dict[str, Any],
    rating_list=None,
    user: AbstractBaseUser | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Load a finished tournament, all or nothing (see the module); nothing when the site already holds it."""
    plan = _check(doc)
    report = ImportReport(SYSTEM)
    rounds = plan.options.rounds
    if plan.known is not None:
        for kind, count in (("players", len(plan.entrants)), ("tournaments", 1), ("rounds", rounds)):
            report.add(kind, 0, count)
        report.add("games", 0, plan.boards)
        report.add("byes", 0, plan.byes)
        return report
    user = user if user is not None and user.is_authenticated else None
    try:
        _load(plan, report, user, progress)
    except GoError as error:  # what only the services see (two ids of one member): nothing is kept
        raise HistoryError([EngineError(error.field or "players", error.message)]) from None
    if progress:
        progress(rounds, rounds, "done")
    return report


@transaction.atomic
def _load(plan: Plan, report: ImportReport, user: AbstractBaseUser | None, progress: Progress | None) -> None:
    """Players, the tournament and its registrations, then every round, in one transaction."""
    rounds = plan.options.rounds
    players, created = players_ensure([e.id for e in plan.entrants], plan.people)
    report.add("players", created, len(plan.entrants) - created)
    go, registrations = _create(plan, players, user)
    report.add("tournaments", 1)
    for number in range(1, rounds + 1):
        if progress:
            progress(number - 1, rounds, f"round {number}")
        _round(go, plan, number, registrations, user)
    now = timezone.now()
    Tournament.objects.filter(pk=go.pk).update(
        status=TournamentStatus.APPROVED, submitted_at=now, approved_at=now, approved_by=user
    )
    report.add("rounds", rounds)
    report.add("games", plan.boards)
    report.add("byes", plan.byes)
    text = {
        "en": f"imported as history: {len(plan.entrants)} players, {rounds} rounds",
        "ru": f"импорт истории: игроков {len(plan.entrants)}, туров {rounds}",
    }
    log(go, user, "import_history", text)


def _create(plan: Plan, players: dict[str, int], user: AbstractBaseUser | None) -> tuple[GoTournament, dict[str, int]]:
    """The tournament and its registrations (in the document's order); the registration pk of each document id."""
    o = plan.options
    date = plan.date or timezone.localdate()
    go = go_tournament_create(
        user=user,
        name=(plan.name or f"Турнир {plan.id}")[:NAME_MAX],
        start_date=date,
        end_date=date,
        city=plan.city,
        system=GoSystem.FUS if o.half_stone or o.acceleration else GoSystem.PROFS,
        rounds=o.rounds,
        half_stone=o.half_stone,
        acceleration=o.acceleration,
        draws_allowed=o.draws_allowed,
        tiebreak=o.tiebreak,
        komi_normal=Decimal(str(o.komi_normal)),
        komi_none=Decimal(str(o.komi_none)),
        komi_reverse=Decimal(str(o.komi_reverse)),
        rate_in_club=False,
    )
    Tournament.objects.filter(pk=go.pk).update(external_id=plan.id)
    members = Player.objects.select_related("club").in_bulk([players[e.id] for e in plan.entrants])
    absences, registrations = [], {}
    for entrant in plan.entrants:
        registration = go_registration_add(go=go, player=members[players[entrant.id]], rating=entrant.rating, user=user)
        registrations[entrant.id] = registration.pk
        absences += [Absence(registration=registration, round_number=n) for n in sorted(entrant.absent)]
    Absence.objects.bulk_create(absences)
    return go, registrations


def _round(go: GoTournament, plan: Plan, number: int, regs: dict[str, int], user: AbstractBaseUser | None) -> None:
    """One round as played: the boards with the levels before it and the handicap and komi played, the byes."""
    now = timezone.now()
    go_round = Round.objects.create(
        tournament=go, number=number, seed=0, status=RoundStatus.PUBLISHED, paired_at=now, published_at=now
    )
    boards, byes = [], []
    for item in plan.games[number - 1]:
        if isinstance(item, pairing.ByeResult):
            byes.append(Bye(round=go_round, registration_id=regs[item.player]))
            continue
        entry = plan.state.player(item.white).history[number - 1]
        if item.both is not None:
            result = BoardResult.BOTH_WIN if item.both == pairing.BOTH_WIN else BoardResult.BOTH_LOSE
        elif item.winner is None:
            result = BoardResult.DRAW
        else:
            result = BoardResult.WHITE if item.winner == item.white else BoardResult.BLACK
        boards.append(
            Board(
                round=go_round,
                number=len(boards) + 1,
                white_id=regs[item.white],
                black_id=regs[item.black],
                white_level=entry.level_before,
                black_level=entry.opponent_level_before,
                handicap=entry.handicap,
                komi_kind=entry.komi,
                komi=Decimal(str(plan.options.komi_points(entry.komi))),
                result=result,
                entered_by=user,
                entered_at=now,
                version=1,
            )
        )
    Board.objects.bulk_create(boards)
    Bye.objects.bulk_create(byes)
    complete_round(go_round)


# --- the way back ---------------------------------------------------------------------------------------------------


def _finished() -> Any:
    """Self-handicap tournaments whose last round is complete."""
    return (
        GoTournament.objects.select_related("tournament")
        .exclude(tournament__go_system=GoSystem.DIRS)
        .filter(rounds__number=F("tournament__rounds"), rounds__completed=True)
    )


def _tournament(tournament: str | None, as_of: dt.date | None = None) -> GoTournament:
    if tournament:
        go = _site_tournament(tournament)
        if go is None or go.tournament.go_system == GoSystem.DIRS:
            raise HistoryError([EngineError("tournament", f"no self-handicap tournament {tournament!r}")])
        return go
    finished = _finished()
    if as_of is not None:
        finished = finished.filter(tournament__end_date__lte=as_of)
    go = finished.order_by("-tournament__end_date", "-pk").first()
    if go is None:
        raise HistoryError([EngineError("tournament", "no finished self-handicap tournament on the site")])
    return go


def _ids(registrations) -> dict[int, str]:
    """Registration pk -> the player's document id (``reg-<pk>`` for a typed name)."""
    members = player_ids_map([r.player_id for r in registrations if r.player_id])
    return {r.pk: members[r.player_id] if r.player_id else f"{TYPED_PREFIX}{r.pk}" for r in registrations}


def _document(go: GoTournament) -> dict[str, Any]:
    """The tournament as a ``selfhandicap`` document: its options, players and every complete round."""
    t = go.tournament
    data = tournament_data(go=go)
    ids = _ids(data.registrations)
    people = {entry["id"]: entry for entry in people_entries([r.player_id for r in data.registrations if r.player_id])}
    absent = {registration_pk(e.id): e.absent for e in data.entrants(t.rounds or 1)}
    players = []
    for reg in data.registrations:
        entry: dict[str, Any] = {"id": ids[reg.pk], "rating": reg.rating, "name": reg.name}
        if reg.player_id:
            entry.update({k: v for k, v in people[ids[reg.pk]].items() if k not in ("id", "name")})
        elif reg.name_latin:
            entry["name_latin"] = reg.name_latin
        if absent.get(reg.pk):
            entry["absent"] = sorted(absent[reg.pk])
        players.append(entry)
    games = []
    for go_round in data.rounds:
        if not go_round.completed or go_round.number != len(games) + 1:
            break
        items: list[dict[str, Any]] = []
        for board in data.boards.get(go_round.pk, []):
            white, black = ids[board.white_id], ids[board.black_id]
            colour = board.winner_colour
            item: dict[str, Any] = {"white": white, "black": black, "winner": None}
            if colour is not None:
                item["winner"] = white if colour == "white" else black
            elif board.both is not None:  # both win, both lose (a double forfeit is both lose to the engine)
                del item["winner"]
                item["both"] = board.both
            stones, komi = pairing.playable_handicap(board.white_level - board.black_level, half_stone=t.half_stone)
            if board.handicap != stones:
                item["handicap"] = board.handicap
            if board.komi_kind != komi:
                item["komi"] = board.komi_kind
            items.append(item)
        items += [{"bye": ids[bye.registration_id]} for bye in data.byes.get(go_round.pk, [])]
        games.append(items)
    options: dict[str, Any] = {
        "half_stone": t.half_stone,
        "acceleration": t.acceleration,
        "draws": t.draws_allowed,
        "tiebreak": go.tiebreak,
    }
    komi = [float(go.komi_normal), float(go.komi_none), float(go.komi_reverse)]
    if komi != [6.5, 0.5, 6.5]:
        options["komi"] = dict(zip(("normal", "none", "reverse"), komi, strict=True))
    doc: dict[str, Any] = {
        "system": SYSTEM,
        "id": document_tournament_id(pk=t.pk, external_id=t.external_id),
        "name": t.name,
        "date": t.end_date.isoformat(),
    }
    if t.city:
        doc["city"] = t.city
    doc.update({"rounds": t.rounds, "options": options, "players": players, "games": games})
    return doc


def selfhandicap_history_export(*, rating_list=None, tournament: str | None = None) -> dict[str, Any]:
    return _document(_tournament(tournament))


#: A tie-break term names its opponent by the engine's id (``r`` + registration pk); the document names players.
_TERM = re.compile(r"(\[round \d+ vs |\[тур \d+, )r(\d+):")


def list_document(*, rating_list=None, as_of: dt.date | None = None, tournament: str | None = None) -> dict[str, Any]:
    """The stored standings after the tournament's last complete round, as ``rate`` prints them."""
    go = _tournament(tournament, as_of)
    last = go.rounds.filter(completed=True).order_by("-number").first()
    if last is None:
        raise HistoryError([EngineError("tournament", f"{go.tournament.name}: no round is complete yet")])
    rows = list(StandingRow.objects.filter(round=last).select_related("registration").order_by("place", "id"))
    ids = _ids([row.registration for row in rows])

    def named(text: str) -> str:
        return _TERM.sub(lambda m: f"{m.group(1)}{ids.get(int(m.group(2)), 'r' + m.group(2))}:", text)

    return {
        "standings": [
            {
                "place": row.place,
                "player": ids[row.registration_id],
                "level": row.level,
                "tiebreak": row.tiebreak,
                "start_level": row.start_level,
                "rating": row.registration.rating,
                "shared": row.shared,
                "explanation": {"en": named(row.explanation_en), "ru": named(row.explanation_ru)},
            }
            for row in rows
        ]
    }


# The names ``ratings.history`` calls every home by.
history_check = selfhandicap_history_check
history_import = selfhandicap_history_import
history_export = selfhandicap_history_export
