"""``/api/v1/players/{id}/history/``: every change of a player's ratings, newest first.

The page is one ``UNION ALL`` of the four systems' changes, sorted and cut to the page by the database, each row
with its stored explanation in the language asked (Gorbunov and DIRS keep both texts, mahjong its formula lines); a
preferans deal stores its numbers, and the page's deals are explained again from them
(``ratings.preferans.selectors.deal_explanations``, one query more, only when the page has a deal). The counts of each
system's changes make the answer's paging. The answer is cached under the versions of what it shows
(``federation.caching``, in ``views``).

Order: newest date first; on the same date, the newest row (the larger id) first. A change without a date comes last.
"""

from __future__ import annotations

import json

from django.db.models import BigIntegerField, Case, CharField, F, FloatField, Q, Subquery, Value, When
from django.db.models.functions import Cast, TruncDate

from federation.api.v1.reads import MAHJONG
from ratings.models import Engine, RatingChange, RatingEntry, RatingList

SYSTEMS = ("gorbunov", "mahjong", "preferans", "dirs")
COLUMNS = ("h_day", "h_order", "h_system", "h_list", "h_before", "h_after", "h_delta", "h_tournament", "h_game")


def history_counts(player_id: int) -> dict[str, int]:
    """How many changes the player has in each system (the answer's ``paging.count``)."""
    from ratings.dirs.models import DirsGame
    from ratings.preferans.models import DealResult

    return {
        "gorbunov": RatingChange.objects.filter(
            player_id=player_id, rating_list__engine=Engine.GORBUNOV, rating_list__is_active=True
        ).count(),
        "mahjong": RatingEntry.objects.filter(
            player_id=player_id,
            snapshot__rating_list__engine__in=sorted(MAHJONG),
            snapshot__rating_list__is_active=True,
        ).count(),
        "preferans": DealResult.objects.filter(player_id=player_id).count(),
        "dirs": DirsGame.objects.filter(Q(rated=True) & (Q(white_id=player_id) | Q(black_id=player_id))).count(),
    }


def _float(name: str):
    return Cast(name, FloatField())


def _none(field):
    """A typed NULL (``NULL::integer``): the branches of the union agree on every column's type."""
    return Cast(Value(None), field)


def _slug(engine: str):
    return Subquery(RatingList.objects.filter(engine=engine).order_by("pk").values("slug")[:1])


def _union(player_id: int, system: str, ru: bool):
    """The page's rows of every system asked, as one ``UNION ALL`` in the answer's order."""
    from ratings.dirs.models import DirsGame
    from ratings.preferans.models import DealResult

    text_field = "explanation_ru" if ru else "explanation_en"
    wanted = SYSTEMS if system == "all" else (system,)
    parts = []
    if "gorbunov" in wanted:
        parts.append(
            RatingChange.objects.filter(
                player_id=player_id, rating_list__engine=Engine.GORBUNOV, rating_list__is_active=True
            ).annotate(
                h_day=F("event_date"),
                h_order=F("pk"),
                h_system=Value(Engine.GORBUNOV.value, output_field=CharField()),
                h_list=F("rating_list__slug"),
                h_before=_float("before"),
                h_after=_float("after"),
                h_delta=_float("delta"),
                h_tournament=F("tournament_id"),
                h_game=_none(BigIntegerField()),
                h_text=F(text_field),
            )
        )
    if "mahjong" in wanted:
        parts.append(
            RatingEntry.objects.filter(
                player_id=player_id,
                snapshot__rating_list__engine__in=sorted(MAHJONG),
                snapshot__rating_list__is_active=True,
                listed=True,
            ).annotate(
                h_day=F("snapshot__as_of"),
                h_order=F("pk"),
                h_system=F("snapshot__rating_list__engine"),
                h_list=F("snapshot__rating_list__slug"),
                h_before=_float("rating") - _float("delta"),
                h_after=_float("rating"),
                h_delta=_float("delta"),
                h_tournament=_none(BigIntegerField()),
                h_game=_none(BigIntegerField()),
                h_text=_none(CharField()),  # explained again for the page (``_mahjong_formulas``)
            )
        )
    if "preferans" in wanted:
        parts.append(
            DealResult.objects.filter(player_id=player_id).annotate(
                h_day=TruncDate("deal__game__played_at"),
                h_order=F("deal_id"),
                h_system=Value(Engine.PREFERANS.value, output_field=CharField()),
                h_list=_slug(Engine.PREFERANS),
                h_before=_float("rating_before"),
                h_after=_float("rating_after"),
                h_delta=_float("delta"),
                h_tournament=_none(BigIntegerField()),
                h_game=F("deal__game_id"),
                h_text=_none(CharField()),
            )
        )
    if "dirs" in wanted:
        white = Q(white_id=player_id)
        before = Case(When(white, then=_float("white_before")), default=_float("black_before"))
        after = Case(When(white, then=_float("white_after")), default=_float("black_after"))
        parts.append(
            DirsGame.objects.filter(Q(rated=True) & (white | Q(black_id=player_id))).annotate(
                h_day=F("date"),
                h_order=F("pk"),
                h_system=Value(Engine.DIRS.value, output_field=CharField()),
                h_list=_slug(Engine.DIRS),
                h_before=before,
                h_after=after,
                h_delta=after - before,
                h_tournament=_none(BigIntegerField()),
                h_game=F("pk"),
                h_text=F(text_field),
            )
        )
    rows = [part.order_by().values_list(*COLUMNS, "h_text") for part in parts]
    union = rows[0].union(*rows[1:], all=True) if len(rows) > 1 else rows[0]
    return union.order_by(F("h_day").desc(nulls_last=True), F("h_order").desc())


def counts_and_page(player_id: int, *, system: str, offset: int, limit: int, language: str):
    """(the counts of ``history_counts``, the page's items)."""
    rows = list(_union(player_id, system, not language.startswith("en"))[offset : offset + limit])
    return history_counts(player_id), history_page(player_id, rows, language)


def history_page(player_id: int, page: list[tuple], language: str) -> list[dict]:
    """The items of one page of the player's history from its rows (``_union``), with the page's preferans deals
    explained (one query, when there is one)."""
    deals = [row[1] for row in page if row[2] == Engine.PREFERANS]
    explained = {}
    if deals:
        from ratings.preferans.selectors import deal_explanations

        explained = {
            deal: text.in_language(language)
            for (deal, pid), text in deal_explanations(deals=deals).items()
            if pid == player_id
        }
    formulas = _mahjong_formulas(player_id, [row[1] for row in page if row[2] in MAHJONG], language)
    gorbunov = _gorbunov_texts([row[1] for row in page if row[2] == Engine.GORBUNOV and not row[-1]], language)
    items = []
    for day, order, name, slug, before, after, delta, tournament, game, text in page:
        if name == Engine.PREFERANS:
            text = explained.get(order, "")
        elif name in MAHJONG:
            text = _lines(formulas.get(order))
        elif name == Engine.GORBUNOV and not text:
            text = gorbunov.get(order, "")
        items.append(
            {
                "system": name,
                "list": slug,
                "date": day,
                "before": before,
                "after": after,
                "delta": delta,
                "tournament": tournament,
                "game": game,
                "explanation": text or "",
            }
        )
    return items


def _gorbunov_texts(change_ids: list[int], language: str) -> dict[int, str]:
    """Change id -> the explanation of the page's Gorbunov changes kept as numbers (issue 29): one query."""
    if not change_ids:
        return {}
    from ratings.change_texts import text_of

    return {
        pk: text_of("", details, before=before, delta=delta, language=language)
        for pk, details, before, delta in RatingChange.objects.filter(pk__in=change_ids).values_list(
            "pk", "details", "before", "delta"
        )
    }


def _mahjong_formulas(player_id: int, entry_ids: list[int], language: str) -> dict[int, list[str]]:
    """Entry id -> the formula lines of the page's mahjong entries, explained again by the engine (issue 29: the rows
    keep the numbers only): one query for the entries, four for the tournaments of their dates."""
    if not entry_ids:
        return {}
    from ratings.mahjong.explain import Explainer
    from ratings.mahjong.selectors import mahjong_data

    rows = list(RatingEntry.objects.filter(pk__in=entry_ids).select_related("snapshot__rating_list"))
    days = [row.snapshot.as_of for row in rows if "formula" not in row.details]
    data = mahjong_data(start=min(days), end=max(days)) if days else None
    key = "ru" if language.startswith("ru") else "en"
    explainers: dict[int, Explainer] = {}
    found = {}
    for row in rows:
        if "formula" in row.details:  # the newest list keeps its explanations
            found[row.pk] = row.details["formula"][key]
            continue
        rating_list = row.snapshot.rating_list
        explainer = explainers.get(rating_list.pk)
        if explainer is None:
            explainer = explainers[rating_list.pk] = Explainer(rating_list, data)
        details = explainer.details(row.snapshot.as_of, {player_id: row.rank}).get(player_id)
        if details is not None:
            found[row.pk] = details["formula"][key]
    return found


def _lines(raw) -> str:
    """The mahjong formula lines, kept as a JSON list, as one text."""
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
