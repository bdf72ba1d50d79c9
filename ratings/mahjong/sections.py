"""The mahjong fragments of the shared player page and tournament page (``federation.sections``), listed in
``settings.PLAYER_PAGE_SECTIONS`` and ``settings.TOURNAMENT_PAGE_SECTIONS``. Each reads a bounded number of
queries whatever the number of snapshots or results.
"""

from __future__ import annotations

from datetime import date

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from federation import charts, formatting
from federation.i18n import current_language
from federation.models import Player
from federation.sections import PlayerSection, RatingCard
from ratings.engines import mahjong as engine
from ratings.mahjong.selectors import (
    mahjong_data,
    mahjong_lists,
    mahjong_settings,
    player_history,
    player_lists,
    tournament_names,
)
from ratings.mahjong.services import mahjong_tournament_problems
from tournaments.models import Discipline, Tournament, TournamentStatus


def player_context(*, player: Player, as_of: date | None, language: str) -> dict:
    """Each list's rating of the player as of a date, the breakdown of part A and part B, and the chart's points.

    Five queries at most whatever the number of snapshots (``selectors.player_lists``: the lists, their snapshots in
    force and the player's entries; the history; the tournaments in the breakdowns, when there are any). ``rows``:
    per list, ``list`` (a ``RatingList``), ``name``, ``snapshot`` (``as_of``) or None, ``entry`` (``rating``,
    ``rank``, ``delta``, ``events``, ``details``) or None, ``scores`` (each with ``tournament``: the ``Tournament``,
    None when deleted since) and ``formula`` (the lines in the language)."""
    shown = player_lists(player_id=player.pk, as_of=as_of)
    history = player_history(player_id=player.pk)
    names = tournament_names(
        {score["t"] for item in shown if item.entry is not None for score in item.entry.details.get("scores", [])}
    )
    key = "ru" if language.startswith("ru") else "en"
    rows = []
    rating_series = []
    rank_series = []
    events = []
    for item in shown:
        rating_list, entry = item.rating_list, item.entry
        name = rating_list.display_name(language)
        scores = []
        formula: list[str] = []
        if entry is not None:
            scores = [{**score, "tournament": names.get(score["t"])} for score in entry.details.get("scores", [])]
            formula = entry.details.get("formula", {}).get(key, [])
        points = history.get(rating_list.pk) or []
        rows.append(
            {
                "list": rating_list,
                "name": name,
                "snapshot": item.snapshot,
                "entry": entry,
                "scores": scores,
                "formula": formula,
                "history": [float(rating) for _day, rating, _rank in points],
            }
        )
        if points:
            rating_series.append(charts.series(name, [(day, rating) for day, rating, _rank in points], stepped=True))
            rank_series.append(charts.series(name, [(day, rank) for day, _rating, rank in points], stepped=True))
        events += [
            charts.event(score["end"], score["tournament"].name) for score in scores if score["tournament"] is not None
        ]
    # Issue 28: at most three series a chart. The ratings on one chart, with the tournaments marked while the lists
    # leave room for them; the places (the higher the better) on a small chart of their own.
    if len(rating_series) > charts.MAX_SERIES - 1:
        events = []
    chart = charts.time_chart(rating_series, events=events, rating=_("rating")) if rating_series else None
    rank_chart = charts.time_chart(rank_series, rating=_("place"), reverse=True) if rank_series else None
    return {
        "player": player,
        "rows": rows,
        "chart": chart,
        "rank_chart": rank_chart,
        "has_any": any(row["entry"] for row in rows) or bool(chart),
    }


def player_section(request, player: Player) -> PlayerSection | None:
    """The player's mahjong lists: a card each at the top of the page, the table, charts and breakdowns folded."""
    context = player_context(player=player, as_of=None, language=current_language())
    if not context["has_any"]:
        return None
    cards = [
        RatingCard(
            discipline=_("Riichi mahjong"),
            name=row["name"],
            url=reverse("ratings:mahjong:list", args=[row["list"].slug]),
            rating=formatting.rating(row["entry"].rating, 2),
            rank=str(row["entry"].rank),
            rank_label=_("place in the list"),
            change=formatting.delta(row["entry"].delta, 2) if row["entry"].delta is not None else "",
            is_new=row["entry"].delta is None,
            history=row["history"],
            anchor="mahjong-player",
        )
        for row in context["rows"]
        if row["entry"] is not None
    ]
    return PlayerSection(render_to_string("mahjong/_player.html", {**context, "in_section": True}), cards)


def _w_by_stage(tournament: engine.RatedTournament, coefficients: engine.Coefficients) -> list[dict]:
    rows = []
    played = 0
    for number, stage in enumerate(tournament.stages, start=1):
        played += stage.hanchans
        rows.append({"stage": number, "hanchans": played, "w": coefficients.w_cents(played) / engine.CENT})
    return rows


def tournament_context(*, tournament: Tournament, today: date, language: str) -> dict:
    """The tournament's status in each list, its reasons in ``language`` whatever language is active."""
    with translation.override(language):
        return _tournament_context(tournament=tournament, today=today, language=language)


def _tournament_context(*, tournament: Tournament, today: date, language: str) -> dict:
    data = mahjong_data(
        start=tournament.end_date, end=tournament.end_date, tournaments=Tournament.objects.filter(pk=tournament.pk)
    )
    problems = mahjong_tournament_problems(tournament)
    key = str(tournament.pk)
    converted = next((t for t in data.tournaments if t.id == key), None)
    countries = {pid: p.country for pid, p in data.players.items()}
    ru = language.startswith("ru")
    statuses = []
    for rating_list in mahjong_lists():
        settings = mahjong_settings(rating_list)
        name = rating_list.display_name(language)
        reasons: list[str] = []
        if tournament.status != TournamentStatus.APPROVED:
            reasons.append(_("not approved by federation staff yet"))
        if converted is None:
            reasons.append(data.invalid.get(key, _("its data cannot be rated")))
            a = 0
        else:
            reasons += [r.ru if ru else r.en for r in engine.eligibility(converted, settings, countries)]
            a = engine.age_bp(converted.end_date, today)
            if converted.end_date > today:
                reasons.insert(0, _("ends after today"))
            elif a == 0:
                reasons.insert(0, _("older than two years"))
        statuses.append({"list": rating_list, "name": name, "counts": not reasons, "reasons": reasons, "a": a / 100})
    coefficients = engine.tournament_coefficients(converted) if converted is not None else None
    return {
        "tournament": tournament,
        "converted": converted,
        "coefficients": coefficients,
        "stages": _w_by_stage(converted, coefficients) if converted is not None and converted.is_cutoff else [],
        "statuses": statuses,
        "problems": problems,
    }


def tournament_section(request, tournament: Tournament) -> str | None:
    if tournament.discipline != Discipline.MAHJONG:
        return None
    context = tournament_context(tournament=tournament, today=timezone.localdate(), language=current_language())
    return render_to_string("mahjong/_tournament.html", context)
