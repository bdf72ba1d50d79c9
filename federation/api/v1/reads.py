"""The public API's reads, built on each system's own selectors (the ones its pages use), so that the API shows
what the pages show. A bounded number of queries per answer whatever the page size."""

from __future__ import annotations

import datetime as dt
import math

from django.db.models import Max, QuerySet
from django.urls import reverse
from django.utils import translation

from federation.latin import display
from federation.models import Player, city_name
from ratings.models import Engine, RatingList

DATED = {Engine.GORBUNOV, Engine.MAHJONG_RR, Engine.MAHJONG_CRR, Engine.MAHJONG_ONLINE}
MAHJONG = {Engine.MAHJONG_RR, Engine.MAHJONG_CRR, Engine.MAHJONG_ONLINE}


def paging(count: int, page: int, per_page: int) -> dict:
    return {"count": count, "page": page, "per_page": per_page, "pages": max(1, math.ceil(count / per_page))}


def public_lists() -> QuerySet[RatingList]:
    return (
        RatingList.objects.filter(is_active=True).annotate(latest=Max("snapshots__as_of")).order_by("ordering", "slug")
    )


def iso_week(day: dt.date) -> str:
    year, week, _day = day.isocalendar()
    return f"{year}-W{week:02d}"


class Urls:
    """Page addresses in one language, reversed once per answer (a player's address is a prefix and the id)."""

    def __init__(self, language: str):
        self.language = language
        with translation.override(language):
            self._player = reverse("federation:player_detail", args=[0]).removesuffix("0/")
            self._tournament = reverse("tournaments:tournament_detail", args=[0]).removesuffix("0/")
            self._club = reverse("federation:club_detail", args=[0]).removesuffix("0/")
            self.home = reverse("federation:home")

    def player(self, pk: int) -> str:
        return f"{self._player}{pk}/"

    def tournament(self, pk: int) -> str:
        return f"{self._tournament}{pk}/"

    def club(self, pk: int) -> str:
        return f"{self._club}{pk}/"

    def rating_list(self, rating_list: RatingList) -> str:
        with translation.override(self.language):
            return rating_list.get_absolute_url()


def player_ref(player: Player, urls: Urls) -> dict:
    return {
        "id": player.pk,
        "name": player.display_name(urls.language),
        "city": player.city or "",
        "display_city": city_name(player.city, urls.language),
        "country": player.country or "",
        "url": urls.player(player.pk),
    }


def list_info(rating_list: RatingList, urls: Urls) -> dict:
    return {
        "slug": rating_list.slug,
        "system": rating_list.engine,
        "name": rating_list.display_name(urls.language),
        "dated": rating_list.engine in DATED,
        "weekly": rating_list.engine == Engine.GORBUNOV,
        "latest": getattr(rating_list, "latest", None) if rating_list.engine in DATED else None,
        "url": urls.rating_list(rating_list),
    }


# --- players ---------------------------------------------------------------------------------------------------------


def player_ratings(player: Player, language: str) -> list[dict]:
    """The player's rating in every list that has one, as the player's page shows them."""
    from ratings.dirs.selectors import dirs_rating_of
    from ratings.engines import dirs as dirs_engine
    from ratings.gorbunov.selectors import player_ratings as gorbunov_ratings
    from ratings.mahjong.sections import player_context
    from ratings.preferans.selectors import player_rating as preferans_rating

    out = []
    for item in gorbunov_ratings(player=player):
        if item.current is None:
            continue
        out.append(
            {
                "system": Engine.GORBUNOV.value,
                "list": item.rating_list.slug,
                "list_name": item.rating_list.display_name(language),
                "rating": float(item.current.rating),
                "rank": item.current.rank,
                "as_of": item.current.snapshot.as_of,
                "details": {"tournaments": item.current.events},
            }
        )
    for row in player_context(player=player, as_of=None, language=language)["rows"]:
        entry = row["entry"]
        if entry is None:
            continue
        out.append(
            {
                "system": row["list"].engine,
                "list": row["list"].slug,
                "list_name": row["name"],
                "rating": float(entry.rating),
                "rank": entry.rank,
                "as_of": row["snapshot"].as_of,
                "details": {
                    "tournaments": entry.events,
                    "part_a": entry.details.get("part_a"),
                    "part_b": entry.details.get("part_b"),
                },
            }
        )
    preferans = preferans_rating(player=player)
    if preferans is not None:
        pref_list = RatingList.objects.filter(engine=Engine.PREFERANS).order_by("pk").first()
        out.append(
            {
                "system": Engine.PREFERANS.value,
                "list": pref_list.slug if pref_list else "preferans",
                "list_name": pref_list.display_name(language) if pref_list else "Preferans",
                "rating": preferans.rating,
                "rank": None,
                "as_of": None,
                "details": {"league": preferans.league, "max_rating": preferans.max_rating, "deals": preferans.deals},
            }
        )
    dirs = dirs_rating_of(player=player)
    if dirs is not None:
        dirs_list = RatingList.objects.filter(engine=Engine.DIRS).order_by("pk").first()
        out.append(
            {
                "system": Engine.DIRS.value,
                "list": dirs_list.slug if dirs_list else "dirs",
                "list_name": dirs_list.display_name(language) if dirs_list else "DIRS",
                "rating": float(dirs.rating),
                "rank": None,
                "as_of": None,
                "details": {
                    "kyu_dan": dirs_engine.rank_of(dirs.rating).short,
                    "games": dirs.games,
                    "acceleration": dirs.acceleration,
                },
            }
        )
    return out


# --- clubs ----------------------------------------------------------------------------------------------------------


def club_ref(club, urls: Urls) -> dict:
    """A club as the clubs' list shows it (``player_count`` annotated by ``federation.clubs.club_list``)."""
    return {
        "id": club.pk,
        "name": club.name,
        "display_name": club.display_name(urls.language),
        "city": club.city or "",
        "display_city": city_name(club.city, urls.language),
        "country": club.country or "",
        "players": getattr(club, "player_count", 0),
        "url": urls.club(club.pk),
    }


def club_detail(club, urls: Urls) -> dict:
    """A club as its page shows it: the texts staff entered (in the language asked, else the Russian), its players
    and their current ratings in every list with their movement this season (``federation.clubs``, the page's own
    selectors and decisions)."""
    from django.utils import timezone

    from federation.clubs import club_players, club_ratings, season_start

    language = urls.language
    today = timezone.localdate()
    players = list(club_players(club=club))
    club.player_count = len(players)
    ratings = []
    for item in club_ratings(club=club, players=players, language=language, today=today):
        ratings.append(
            {
                "system": item.engine,
                "list": item.rating_list.slug,
                "list_name": item.name,
                "as_of": item.as_of,
                "players": [
                    {
                        "player": player_ref(row.player, urls),
                        "rating": float(row.rating),
                        "rank": row.rank,
                        "label": row.label,
                        "season": None if row.season is None else float(row.season),
                    }
                    for row in item.rows
                ],
            }
        )
    return {
        **club_ref(club, urls),
        "meeting_place": club.localised("meeting_place", language),
        "contact": club.localised("contact", language),
        "website": club.website,
        "season_start": season_start(today),
        "members": [player_ref(player, urls) for player in players],
        "ratings": ratings,
    }


# --- tournaments ----------------------------------------------------------------------------------------------------


def tournament_ref(tournament, urls: Urls) -> dict:
    count = getattr(tournament, "result_count", None)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "display_name": tournament.display_name(urls.language),
        "discipline": tournament.discipline,
        "start_date": tournament.start_date,
        "end_date": tournament.end_date,
        "city": tournament.city or "",
        "display_city": city_name(tournament.city, urls.language),
        "country": tournament.country or "",
        "participants": count if count is not None else (tournament.participants or 0),
        "url": urls.tournament(tournament.pk),
    }


def tournament_detail(tournament, urls: Urls) -> dict:
    from django.utils import timezone
    from django.utils.translation import gettext as _

    from tournaments.models import Discipline, Result

    language = urls.language
    results = list(Result.objects.filter(tournament=tournament).select_related("player").order_by("place", "pk"))
    tournament.result_count = len(results)
    today = timezone.localdate()
    statuses = []
    if tournament.discipline == Discipline.CARD_GAMES:
        from ratings.gorbunov.selectors import tournament_ratings

        for item in tournament_ratings(tournament=tournament, today=today):
            reasons = []
            if item.reason_code == "waiting":
                reasons.append(
                    _("Not rated yet: waiting for the publication of %(monday)s.")
                    % {"monday": item.waiting_for.isoformat() if item.waiting_for else ""}
                )
            elif item.reason_code == "not_approved":
                reasons.append(_("Not rated: the tournament is not approved yet."))
            elif item.reason_code == "too_small":
                reasons.append(_("Not rated: fewer than %(n)s players.") % {"n": item.minimum})
            elif item.reason_code == "format":
                reasons.append(_("Not rated: this list does not take the tournament's format."))
            elif item.reason_code:
                reasons.append(_("Not rated: the results have problems (places must run 1..U, K must be set)."))
            statuses.append(
                {
                    "list": item.rating_list.slug,
                    "list_name": item.rating_list.display_name(language),
                    "counts": not item.reason_code,
                    "reasons": reasons,
                    "changes": len(item.changes),
                }
            )
    elif tournament.discipline == Discipline.MAHJONG:
        from ratings.mahjong.sections import tournament_context

        context = tournament_context(tournament=tournament, today=today, language=language)
        for status in context.get("statuses", []):
            statuses.append(
                {
                    "list": status["list"].slug,
                    "list_name": status["name"],
                    "counts": bool(status["counts"]),
                    "reasons": [str(r) for r in status["reasons"]],
                    "changes": 0,
                }
            )
    details = {
        "card_format": tournament.card_format or None,
        "k": tournament.k,
        "hanchans": tournament.hanchans,
        "accredited": tournament.accredited,
        "online": tournament.online,
        "go_system": tournament.go_system or None,
        "rounds": tournament.rounds,
    }
    go_rounds, go_standings = _go(tournament, language)
    return {
        **tournament_ref(tournament, urls),
        "status": tournament.status,
        "details": details,
        "results": [
            {
                "place": r.place,
                "player": player_ref(r.player, urls) if r.player_id else None,
                "name": r.player.display_name(language)
                if r.player_id
                else display(r.participant_name, language=language),
            }
            for r in results
        ],
        "lists": statuses,
        "go_rounds": go_rounds,
        "go_standings": go_standings,
    }


def _go(tournament, language: str):
    """A Go tournament's published rounds (boards with colours, handicap, komi and result; byes) and the standings
    after its last completed round, as its public pages show them; (None, None) for other tournaments."""
    from tournaments.go import sheets
    from tournaments.go.models import Board, Bye, GoTournament

    go = GoTournament.objects.filter(tournament=tournament).first()
    if go is None:
        return None, None
    rounds = list(go.rounds.filter(status="published").order_by("number"))
    boards: dict[int, list[dict]] = {r.pk: [] for r in rounds}
    for board in Board.objects.filter(round__in=rounds).select_related("white", "black").order_by("round_id", "number"):
        boards[board.round_id].append(
            {
                "board": board.number,
                "white": board.white.display_name(language),
                "black": board.black.display_name(language),
                "white_player": board.white.player_id,
                "black_player": board.black.player_id,
                "handicap": board.handicap,
                "komi": float(board.komi),
                "result": board.result or None,
            }
        )
    for bye in (
        Bye.objects.filter(round__in=rounds).select_related("registration").order_by("round_id", "registration__name")
    ):
        boards[bye.round_id].append(
            {"bye": True, "white": bye.registration.display_name(language), "white_player": bye.registration.player_id}
        )
    go_rounds = [{"number": r.number, "pairings": boards[r.pk]} for r in rounds]
    last = (
        go.rounds.filter(completed=True, status="published")
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    standings = []
    if last is not None:
        for line in sheets.standings_table(go=go, upto=last, language=language, cells=False):
            standings.append(
                {
                    "place": line.place,
                    "shared": bool(line.shared),
                    "name": line.name,
                    "rank": str(line.rank),
                    "club": line.club,
                    "wins": line.wins,
                    "level": line.level,
                    "tiebreak": float(line.tiebreak) if line.tiebreak is not None else None,
                    "after_round": last,
                }
            )
    return go_rounds, standings
