"""A published mahjong list as the document ``manage.py rate`` prints (``show_list``, ``docs/rate-cli.md``).

The list comes from the snapshot in force on the date (the newest on or before it): each entry's rank, rating,
parts, tournaments and numbers as published, with the site's ids turned back into the document's (federation ids,
or ``site-<pk>``). ``rate`` lists every tournament of its document that does not count; the snapshot keeps the
reasons of those in the two-year window, and the others (ended after the date, or older than two years) are given
the same reasons ``rate`` gives them: that time reason first, then the list's rules they fail.

**Decision:** tournaments are taken in end-date order (then as entered), the order of the export; ``rate`` follows
its document's order, so a document in date order gives the same ``excluded``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from ratings.engines import mahjong as engine
from ratings.engines.common import Explanation
from ratings.history import document_tournament_id, player_ids_map
from ratings.mahjong.explain import Explainer
from ratings.mahjong.selectors import mahjong_data, mahjong_settings, snapshot_at
from ratings.mahjong.storage import entries_as_of, ranks_as_of
from ratings.models import RatingList, RatingSnapshot
from tournaments.models import Tournament

EARLIEST = dt.date(1900, 1, 1)
LATEST = dt.date(9999, 1, 1)
AFTER = ("ends after the rating date", "завершается после даты рейтинга")
OLDER = ("older than two years", "старше двух лет")


def _entry(rank: int, player: str, rating: float, details: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    scores = sorted(details["scores"], key=lambda s: (-dt.date.fromisoformat(s["end"]).toordinal(), ids[s["t"]]))
    # The engine's order of the chosen tournaments: largest delta, then latest end, then id.
    chosen = sorted(
        scores,
        key=lambda s: (-round(s["delta"] * engine.CENT), -dt.date.fromisoformat(s["end"]).toordinal(), ids[s["t"]]),
    )
    en, ru = [], []
    for score in scores:
        line_en, line_ru = engine.score_line(
            tournament=ids[score["t"]],
            end=score["end"],
            place=score["place"],
            players=score["players"],
            w=score["w"],
            a_percent=score["a"],
            delta=score["delta"],
            marks=("A" if score["in_a"] else "") + ("B" if score["in_b"] else ""),
        )
        en.append(line_en)
        ru.append(line_ru)
    return {
        "rank": rank,
        "player": player,
        "rating": rating,
        "part_a": details["part_a"],
        "part_b": details["part_b"],
        "tournaments": details["n"],
        "part_a_tournaments": [ids[s["t"]] for s in chosen if s["in_a"]],
        "part_b_tournaments": [ids[s["t"]] for s in chosen if s["in_b"]],
        "details": [
            {
                "tournament": ids[s["t"]],
                "place": s["place"],
                "players": s["players"],
                "hanchans": s["hanchans"],
                "w": s["w"],
                "r": s["r"],
                "a": s["a"],
                "delta": s["delta"],
                "part_a": s["in_a"],
                "part_b": s["in_b"],
            }
            for s in scores
        ],
        "explanation": {
            "en": "\n".join([*en, *details["formula"]["en"]]),
            "ru": "\n".join([*ru, *details["formula"]["ru"]]),
        },
    }


def _maxk(item: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    w_cents = round(item["w"] * engine.CENT)
    a_bp = round(item["a"] * engine.CENT)
    tournament = item["tournament"]
    return {
        "tournament": None if tournament is None else ids[tournament],
        "w": w_cents / engine.CENT,
        "a": a_bp / engine.A_FULL,
        "wa": w_cents * a_bp / engine.WA_UNIT,
    }


def mahjong_list_document(*, rating_list: RatingList, as_of: dt.date | None = None) -> dict[str, Any]:
    """What the site has published for ``rating_list`` as of ``as_of`` (the snapshot in force that day, or the
    newest), as the document ``manage.py rate`` prints for the same history (see the module)."""
    snapshot = snapshot_at(rating_list=rating_list, as_of=as_of)
    if as_of is None:
        as_of = snapshot.as_of if snapshot is not None else timezone.localdate()
    summary = snapshot.summary if snapshot is not None else {}
    data = mahjong_data(start=EARLIEST, end=LATEST)
    rows = Tournament.objects.filter(pk__in=[int(t.id) for t in data.tournaments]).values_list("pk", "external_id")
    ids = {str(pk): document_tournament_id(pk=pk, external_id=external) for pk, external in rows}
    entries = []
    if snapshot is not None:
        newest = not RatingSnapshot.objects.filter(rating_list=rating_list, as_of__gt=snapshot.as_of).exists()
        rows = entries_as_of(snapshot, newest=newest).order_by()
        ranks = ranks_as_of(snapshot, newest=newest)
        found = sorted((ranks[player], player, rating) for player, rating in rows.values_list("player_id", "rating"))
        if newest:  # the newest keeps its explanations; an older date's are worked out again (issue 29)
            explained = dict(rows.values_list("player_id", "details"))
        else:
            explained = Explainer(rating_list, data).details(snapshot.as_of, {p: rank for rank, p, _ in found})
        names = player_ids_map(player for _rank, player, _rating in found)
        entries = [_entry(rank, names[player], float(rating), explained[player], ids) for rank, player, rating in found]
    stored = {item["id"]: (item["en"], item["ru"]) for item in summary.get("excluded", [])}
    counted = {item["id"] for item in summary.get("counted", [])}
    settings = mahjong_settings(rating_list)
    countries = {pid: player.country for pid, player in data.players.items()}
    excluded = []
    for tournament in data.tournaments:
        tid = tournament.id
        if tid in counted:
            continue
        if tid in stored:
            reason = stored[tid]
        else:
            reasons = list(engine.eligibility(tournament, settings, countries))
            if tournament.end_date > as_of:
                reasons.insert(0, Explanation(*AFTER))
            elif engine.age_bp(tournament.end_date, as_of) == 0:
                reasons.insert(0, Explanation(*OLDER))
            if not reasons:
                continue  # counts on the date, but the site has published no list yet
            reason = ("; ".join(r.en for r in reasons), "; ".join(r.ru for r in reasons))
        excluded.append({"tournament": ids[tid], "reason": reason[0], "reason_ru": reason[1]})
    return {
        "as_of": as_of.isoformat(),
        "list": entries,
        "excluded": excluded,
        "maxk": [_maxk(item, ids) for item in summary["maxk"]] if snapshot is not None else _nothing(settings),
    }


def _nothing(settings: engine.ListSettings) -> list[dict[str, Any]]:
    """MAXK before any list is published: every place missing, counted as 1 (`rules/mahjong.md`, "Part B")."""
    return [{"tournament": None, "w": 1.0, "a": 1.0, "wa": 1.0}] * settings.part_b_count
