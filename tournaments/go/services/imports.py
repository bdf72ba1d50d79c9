"""Players and finished tournaments from files: an EGD `.h9` table or a CSV list (``egd_read``), matched against the
members, previewed, then saved all or nothing.

Matching (the preview proposes, the director decides row by row):

1. an EGD PIN the file gives that a member holds: that member;
2. the public name search (``federation.selectors.player_search``: every word, either alphabet, case and ё folded)
   on the surname, kept where the whole name is the same after transliteration (``federation.latin.latin_key``,
   so "Kondratyev Daniil" finds "Кондратьев Даниил"); a single such member is chosen, namesakes are listed;
3. the rows still unmatched, against every member's name by its Latin key (a member with no Latin name on the
   site, or a Latin name spelled another way);
4. otherwise the player is registered by the name in the file.

A single namesake found by the name alone (steps 2 and 3) is proposed only where the file's club and country do not
contradict the member's: a file that gives a club none of whose words starts as the member's club, the club's city
or the member's city do (``Tver`` and a member of Sochi), or another country, leaves the row to the director
("check": the member is offered, the name in the file proposed). A PIN decides alone.

Ratings (`rules/go.md`, part 1, Decision): a rating below 0 (EGD's ratings go down to 30 kyu, -900) or a rank weaker
than 21 kyu counts as 0; the preview says so on the row, and the import registers 0. A rating above the scale is a
problem the preview shows on its row, before anything is confirmed.

A member's EGD PIN is kept when the file gives one and the member has none (and no other member holds it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from federation.latin import latin_key
from federation.models import Player
from federation.selectors import player_search
from ratings.dirs.models import DIRS_RATING_MAX
from ratings.engines.common import EngineError

from ..egd_read import PlayerRow, Table, rank_rating
from ..models import TOURNAMENT_RATING_MAX, GoTournament, Registration
from ..selectors import is_dirs
from .common import GoError, check_writable, log
from .registrations import go_registration_add

#: At most this many namesakes are offered for one row; the director types a rating by hand past that.
CANDIDATES = 8


@dataclass
class Candidate:
    id: int
    name: str
    latin: str
    city: str
    club: str
    pin: str
    country: str = ""
    club_city: str = ""


@dataclass
class Match:
    """A file's row with the members it may be: ``chosen`` is proposed (a member id, or None: by name)."""

    row: PlayerRow
    candidates: list[Candidate] = field(default_factory=list)
    chosen: int | None = None
    how: str = "none"  # "pin", "name", "several", "check" (a namesake whose club or country differ), "none"
    registered: bool = False
    rating: int | None = None
    problem: str = ""
    note: str = ""

    @property
    def key(self) -> str:
        return f"row{self.row.line}"


def _candidate(p: Player) -> Candidate:
    club = p.club if p.club_id else None
    return Candidate(
        p.pk,
        p.full_name,
        p.full_name_latin,
        p.city,
        club.name if club else "",
        p.egd_pin,
        p.country,
        club.city if club else "",
    )


def agrees(row: PlayerRow, candidate: Candidate) -> bool:
    """Whether the file's club and country may be the member's (the module: nothing said contradicts them)."""
    if row.country and candidate.country and row.country.upper() != candidate.country.upper():
        return False
    mine = [w for w in latin_key(row.club).split() if len(w) >= 3]
    theirs = {w for text in (candidate.club, candidate.club_city, candidate.city) for w in latin_key(text).split()}
    theirs = {w for w in theirs if len(w) >= 3}
    if not mine or not theirs:
        return True
    return any(a.startswith(b[:3]) or b.startswith(a[:3]) for a in mine for b in theirs)


def _propose(m: Match, candidate: Candidate) -> None:
    """A single namesake found by the name: proposed where the file's club and country agree, else left to check."""
    if agrees(m.row, candidate):
        m.chosen, m.how = candidate.id, "name"
    else:
        m.how = "check"


def _keys(p: Player) -> set[str]:
    """The keys a member's name is known by: its Latin name and its transliterated Cyrillic name."""
    return {k for k in (latin_key(p.full_name_latin), latin_key(p.full_name)) if k}


def row_rating(row: PlayerRow, *, dirs_scale: bool) -> int | None:
    """The row's rating on the tournament's scale: typed, or from the rank (a DIRS rating r is 10 r, `rules/go.md`).

    A rank weaker than 21 kyu (EGD's go down to 30 kyu) is 0, the bottom of both scales; a negative rating is
    returned as it is (``match_players`` says it counts as 0)."""
    if row.rating is not None:
        return row.rating
    if not row.rank:
        return None
    if rank_weaker_than_21k(row.rank):
        return 0
    rating = rank_rating(row.rank)
    return rating if dirs_scale else rating * 10


def _rating_checked(m: Match, *, dirs_scale: bool) -> None:
    """Below 0 counts as 0 (`rules/go.md`, part 1, Decision), said on the row; above the scale is the row's problem."""
    where = _("line %(n)s") % {"n": m.row.line}
    if m.rating is not None and m.rating < 0:
        m.note = _("%(where)s: rating %(r)s is below 0 and counts as 0 (rules, part 1)") % {
            "where": where,
            "r": m.rating,
        }
        m.rating = 0
    elif m.row.rating is None and rank_weaker_than_21k(m.row.rank):
        m.note = _("%(where)s: %(rank)s is weaker than 21 kyu and counts as rating 0") % {
            "where": where,
            "rank": m.row.rank,
        }
    top = DIRS_RATING_MAX if dirs_scale else TOURNAMENT_RATING_MAX
    if m.rating is not None and m.rating > top and not m.problem:
        scale = _("DIRS scale") if dirs_scale else _("tournament scale")
        m.problem = _("%(where)s: rating %(rating)s is outside the %(scale)s (0..%(top)s)") % {
            "where": where,
            "rating": m.rating,
            "scale": scale,
            "top": top,
        }


def rank_weaker_than_21k(rank: str) -> bool:
    """22 to 30 kyu (EGD's ranks go down to 30 kyu; the site's scales stop at 21 kyu = 0)."""
    weak = re.fullmatch(r"(\d{1,2})k?", rank.strip().lower())
    return bool(weak) and 21 < int(weak.group(1)) <= 30


def match_players(rows: list[PlayerRow], *, go: GoTournament | None = None) -> list[Match]:
    """Each row with the members it may be (the module's matching), and whether it is registered in ``go``."""
    members = Player.objects.filter(is_bot=False).select_related("club")
    pins = {r.pin for r in rows if r.pin}
    by_pin = {p.egd_pin: p for p in members.filter(egd_pin__in=pins)} if pins else {}
    dirs_scale = go is not None and is_dirs(go)
    matches = []
    unmatched = []
    for row in rows:
        m = Match(row)
        try:
            m.rating = row_rating(row, dirs_scale=dirs_scale)
        except EngineError as error:
            m.problem = _("line %(n)s: %(why)s") % {"n": row.line, "why": error.message}
        _rating_checked(m, dirs_scale=dirs_scale)
        member = by_pin.get(row.pin) if row.pin else None
        if member is not None:
            m.candidates, m.chosen, m.how = [_candidate(member)], member.pk, "pin"
        else:
            wanted = latin_key(row.name)
            found = list(player_search(queryset=members, search=row.surname).order_by("last_name", "id")[:50])
            same = [p for p in found if wanted in _keys(p)]
            m.candidates = [_candidate(p) for p in (same or found)[:CANDIDATES]]
            if len(same) == 1:
                _propose(m, m.candidates[0])
            elif len(same) > 1:
                m.how = "several"
            else:
                unmatched.append(m)
        matches.append(m)
    if unmatched:
        _match_by_transliteration(unmatched, members)
    if go is not None:
        registered = set(Registration.objects.filter(tournament=go).values_list("player_id", "name"))
        ids = {pid for pid, _name in registered if pid}
        names = {name.casefold() for pid, name in registered if not pid}
        for m in matches:
            if m.chosen is None:
                known = [c.id for c in m.candidates if c.id in ids]
                if len(known) == 1:  # a namesake registered before, from this file or by hand
                    m.chosen = known[0]
            m.registered = (m.chosen in ids) or (m.chosen is None and m.row.name.casefold() in names)
    return matches


def _match_by_transliteration(matches: list[Match], members) -> None:
    """Rows the search did not find, compared with every member's name by its Latin key (one query for all rows):
    a member with no Latin name on the site, or one whose Latin name is spelled another way ("Kondratyev")."""
    surnames = {latin_key(m.row.surname) for m in matches}
    hits: dict[str, list[int]] = {}
    rows = members.values_list("id", "last_name", "first_name", "last_name_latin", "first_name_latin")
    for pk, last, first, last_latin, first_latin in rows:
        if latin_key(last) in surnames or (last_latin and latin_key(last_latin) in surnames):
            for key in {latin_key(f"{last} {first}"), latin_key(f"{last_latin} {first_latin}")} - {""}:
                hits.setdefault(key, []).append(pk)
    found = {p.pk: p for p in members.filter(pk__in={pk for ids in hits.values() for pk in ids})}
    for m in matches:
        ids = list(dict.fromkeys(hits.get(latin_key(m.row.name), [])))
        if ids:
            m.candidates = [_candidate(found[pk]) for pk in ids[:CANDIDATES]]
            if len(ids) == 1:
                _propose(m, m.candidates[0])
            else:
                m.how = "several"


def _choice(match: Match, choices: dict[str, str]) -> str:
    """The director's choice for a row: a member's id, "name" (not a member) or "skip"."""
    default = "skip" if match.registered else (str(match.chosen) if match.chosen else "name")
    return choices.get(match.key, default)


def _keep_pin(player: Player, pin: str) -> None:
    if pin and not player.egd_pin and not Player.objects.filter(egd_pin=pin).exists():
        player.egd_pin = pin
        player.save(update_fields=["egd_pin"])


def register_matches(
    *,
    go: GoTournament,
    matches: list[Match],
    choices: dict[str, str],
    user: AbstractBaseUser | None,
    require_all: bool = False,
) -> dict[str, Registration]:
    """Register each row as the director chose (a member offered, or by name); rows skipped are left out unless
    ``require_all`` (a tournament's history needs every player). ``GoError`` names the line of a refused row."""
    registered = {}
    for m in matches:
        choice = _choice(m, choices)
        where = _("line %(n)s") % {"n": m.row.line}
        if choice == "skip":
            if require_all:
                raise GoError("file", _("%(where)s: every player of the table takes part.") % {"where": where})
            continue
        if m.problem:
            raise GoError("file", m.problem)
        player = None
        if choice != "name":
            offered = {c.id for c in m.candidates}
            if not choice.isdigit() or int(choice) not in offered:
                raise GoError("file", _("%(where)s: choose one of the members offered.") % {"where": where})
            player = Player.objects.get(pk=int(choice))
        try:
            registered[m.key] = go_registration_add(
                go=go,
                player=player,
                surname="" if player else m.row.surname,
                given_name="" if player else m.row.first_name,
                rating=m.rating,
                country=m.row.country,
                club_name=m.row.club,
                egd_pin=m.row.pin,
                user=user,
            )
        except GoError as error:
            raise GoError("file", f"{where}: {error.message}") from error
        if player is not None:
            _keep_pin(player, m.row.pin)
    return registered


@transaction.atomic
def go_players_import(
    *, go: GoTournament, table: Table, choices: dict[str, str], user: AbstractBaseUser | None = None
) -> int:
    """Register the file's players as the director chose, all or nothing; the number registered.

    Refused as a whole (``GoError`` naming the line) when the file has problems or a row cannot be registered: an
    unknown member, a row with neither rank nor rating for a player without a DIRS rating, a rating off the scale.
    """
    check_writable(go, user)
    if table.problems:
        raise GoError("file", table.problems[0])
    registered = register_matches(go=go, matches=match_players(table.players, go=go), choices=choices, user=user)
    count = len(registered)
    text = {"en": f"{count} player(s) imported from a file", "ru": f"из файла зарегистрировано игроков: {count}"}
    log(go, user, "import", text)
    return count
