"""The public API's reads, built on each system's own selectors (the ones its pages use), so that the API shows
what the pages show. A bounded number of queries per answer whatever the page size."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import FloatField, Max, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils import translation

from federation.models import Player
from ratings.dates import AskedDate, list_for_date
from ratings.engines.gorbunov import week_start
from ratings.models import Engine, RatingList, RatingSnapshot

DATED = {Engine.GORBUNOV, Engine.MAHJONG_RR, Engine.MAHJONG_CRR, Engine.MAHJONG_ONLINE}
MAHJONG = {Engine.MAHJONG_RR, Engine.MAHJONG_CRR, Engine.MAHJONG_ONLINE}


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
            self.home = reverse("federation:home")

    def player(self, pk: int) -> str:
        return f"{self._player}{pk}/"

    def tournament(self, pk: int) -> str:
        return f"{self._tournament}{pk}/"

    def rating_list(self, rating_list: RatingList) -> str:
        with translation.override(self.language):
            return rating_list.get_absolute_url()


def player_ref(player: Player, urls: Urls) -> dict:
    return {
        "id": player.pk,
        "name": player.display_name(urls.language),
        "city": player.city or "",
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


@dataclass
class ShownList:
    snapshot: RatingSnapshot | None
    message: str


def shown_snapshot(rating_list: RatingList, asked: AskedDate) -> ShownList:
    """The publication the list's page shows for the date asked (``ratings.dates.list_for_date``, the pages' rule)."""
    if rating_list.engine == Engine.GORBUNOV:
        from ratings.gorbunov.selectors import list_snapshots

        shown = list_for_date(list_snapshots(rating_list=rating_list), asked, period_start=week_start)
    else:
        from ratings.mahjong.selectors import list_snapshots

        shown = list_for_date(list_snapshots(rating_list=rating_list, summary=False), asked)
    return ShownList(shown.snapshot, shown.message)


def list_rows(rating_list: RatingList, snapshot: RatingSnapshot | None, *, league: str, offset: int, limit: int):
    """(count, rows) of one page of the list, each row (rank, player, rating, delta, tournaments, parts), in the
    page's order."""
    engine = rating_list.engine
    if engine == Engine.GORBUNOV:
        from ratings.gorbunov.selectors import list_view

        view = list_view(snapshot=snapshot)
        keys = ("rank", "player_id") if view.newest else ("-rating", "player_id")
        entries = view.entries.order_by(*keys)
        count = entries.count()
        rows = [
            (view.rank(e), e.player, float(e.rating), _num(view.delta(e)), e.events, {})
            for e in entries[offset : offset + limit]
        ]
        return count, rows
    if engine in MAHJONG:
        from ratings.mahjong.selectors import snapshot_entries

        entries = (
            snapshot_entries(snapshot=snapshot)
            .annotate(
                part_a=Cast(KT("details__part_a"), FloatField()), part_b=Cast(KT("details__part_b"), FloatField())
            )
            .order_by("rank", "player_id")
        )
        count = entries.count()
        rows = [
            (e.rank, e.player, float(e.rating), _num(e.delta), e.events, {"part_a": e.part_a, "part_b": e.part_b})
            for e in entries[offset : offset + limit]
        ]
        return count, rows
    if engine == Engine.PREFERANS:
        from ratings.preferans.selectors import leaderboard

        ratings = leaderboard(league=league)
        count = ratings.count()
        rows = [
            (offset + n, r.player, float(r.rating), None, None, {"max_rating": r.max_rating, "deals": r.deals})
            for n, r in enumerate(ratings[offset : offset + limit], start=1)
        ]
        return count, rows
    if engine == Engine.DIRS:
        from ratings.dirs.selectors import dirs_leaderboard

        ratings = dirs_leaderboard()
        count = ratings.count()
        rows = [
            (r.place, r.player, float(r.rating), None, None, {"games": r.games, "acceleration": r.acceleration})
            for r in ratings[offset : offset + limit]
        ]
        return count, rows
    return 0, []


def _num(value) -> float | None:
    return None if value is None else float(value)


def changed_at(rating_list: RatingList):
    """When a current leaderboard (preferans, DIRS) last changed: its ``Last-Modified``."""
    if rating_list.engine == Engine.PREFERANS:
        from ratings.preferans.models import PreferansRating

        return PreferansRating.objects.aggregate(at=Max("updated_at"))["at"]
    if rating_list.engine == Engine.DIRS:
        from ratings.dirs.models import DirsRating

        return DirsRating.objects.aggregate(at=Max("updated_at"))["at"]
    return None


# --- players ---------------------------------------------------------------------------------------------------------


def player_ratings(player: Player, language: str) -> list[dict]:
    """The player's rating in every list that has one, as the player's page shows them."""
    from ratings.dirs import calculator as _dirs_calc  # noqa: F401  (the DIRS app is loaded)
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


def player_history(player: Player, *, system: str, offset: int, limit: int, language: str) -> tuple[int, list[dict]]:
    """Every change of the player's ratings, newest first: (count, the page's items with their explanations).

    The light rows of every system are read first (ids, dates, numbers), sorted and cut to the page; only the page's
    explanations are then read (the mahjong formula lines, the Gorbunov texts) or rebuilt (a preferans deal's, from
    the stored numbers of its table).
    """
    from ratings.dirs.models import DirsGame
    from ratings.models import RatingChange, RatingEntry
    from ratings.preferans.models import DealResult
    from ratings.preferans.selectors import deal_explanations

    ru = language.startswith("ru")
    light: list[tuple] = []  # (date, order, system, key, list slug, before, after, delta, tournament, game)
    if system in ("all", "gorbunov"):
        for pk, slug, day, before, after, delta, tournament_id in RatingChange.objects.filter(
            player=player, rating_list__engine=Engine.GORBUNOV, rating_list__is_active=True
        ).values_list("pk", "rating_list__slug", "event_date", "before", "after", "delta", "tournament_id"):
            light.append(
                (day, pk, "gorbunov", pk, slug, float(before), float(after), float(delta), tournament_id, None)
            )
    if system in ("all", "mahjong"):
        for pk, slug, engine, day, rating, delta in RatingEntry.objects.filter(
            player=player, snapshot__rating_list__engine__in=list(MAHJONG), snapshot__rating_list__is_active=True
        ).values_list(
            "pk", "snapshot__rating_list__slug", "snapshot__rating_list__engine", "snapshot__as_of", "rating", "delta"
        ):
            after = float(rating)
            before = None if delta is None else after - float(delta)
            light.append(
                (day, pk, engine, pk, slug, before, after, None if delta is None else float(delta), None, None)
            )
    if system in ("all", "preferans"):
        pref_slug = RatingList.objects.filter(engine=Engine.PREFERANS).values_list("slug", flat=True).first() or ""
        for deal_id, game_id, at, before, after, delta in DealResult.objects.filter(player=player).values_list(
            "deal_id", "deal__game_id", "deal__game__played_at", "rating_before", "rating_after", "delta"
        ):
            day = timezone_date(at)
            light.append((day, deal_id, "preferans", deal_id, pref_slug, before, after, delta, None, game_id))
    if system in ("all", "dirs"):
        dirs_slug = RatingList.objects.filter(engine=Engine.DIRS).values_list("slug", flat=True).first() or ""
        for pk, day, white, wb, wa, bb, ba in (
            DirsGame.objects.filter(rated=True)
            .filter(models_q(white=player) | models_q(black=player))
            .values_list("pk", "date", "white_id", "white_before", "white_after", "black_before", "black_after")
        ):
            before, after = (wb, wa) if white == player.pk else (bb, ba)
            light.append((day, pk, "dirs", pk, dirs_slug, float(before), float(after), float(after - before), None, pk))
    light.sort(key=lambda row: (row[0] or dt.date.min, row[1]), reverse=True)
    page = light[offset : offset + limit]
    texts: dict[tuple[str, int], str] = {}
    by_system: dict[str, list[int]] = {}
    for row in page:
        by_system.setdefault("mahjong" if row[2] in MAHJONG else row[2], []).append(row[3])
    if by_system.get("gorbunov"):
        field = "explanation_ru" if ru else "explanation_en"
        for pk, text in RatingChange.objects.filter(pk__in=by_system["gorbunov"]).values_list("pk", field):
            texts[("gorbunov", pk)] = text
    if by_system.get("mahjong"):
        key = "ru" if ru else "en"
        for pk, lines in RatingEntry.objects.filter(pk__in=by_system["mahjong"]).values_list(
            "pk", KT(f"details__formula__{key}")
        ):
            texts[("mahjong", pk)] = _lines(lines)
    if by_system.get("preferans"):
        for (deal_id, pid), explanation in deal_explanations(deals=by_system["preferans"]).items():
            if pid == player.pk:
                texts[("preferans", deal_id)] = explanation.in_language(language)
    if by_system.get("dirs"):
        field = "explanation_ru" if ru else "explanation_en"
        for pk, text in DirsGame.objects.filter(pk__in=by_system["dirs"]).values_list("pk", field):
            texts[("dirs", pk)] = text
    items = []
    for day, _order, name, key, slug, before, after, delta, tournament_id, game_id in page:
        kind = "mahjong" if name in MAHJONG else name
        items.append(
            {
                "system": name,
                "list": slug,
                "date": day,
                "before": before,
                "after": after,
                "delta": delta,
                "tournament": tournament_id,
                "game": game_id,
                "explanation": texts.get((kind, key), ""),
            }
        )
    return len(light), items


def _lines(raw) -> str:
    """The mahjong formula lines, kept as a JSON list, as one text."""
    import json

    if raw is None:
        return ""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return raw
    if isinstance(raw, list):
        return "\n".join(str(line) for line in raw)
    return str(raw)


def timezone_date(moment) -> dt.date | None:
    from django.utils import timezone

    return timezone.localdate(moment) if moment is not None else None


def models_q(**kwargs):
    from django.db.models import Q

    return Q(**kwargs)


# --- tournaments ----------------------------------------------------------------------------------------------------


def tournament_ref(tournament, urls: Urls) -> dict:
    count = getattr(tournament, "result_count", None)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "discipline": tournament.discipline,
        "start_date": tournament.start_date,
        "end_date": tournament.end_date,
        "city": tournament.city or "",
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
                "name": r.player.display_name(language) if r.player_id else r.participant_name,
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
