"""The mahjong part of a player's page (``player_context``'s ratings, chart and breakdowns) written in Python.

Written here for the same reason as the lists' rows (``federation.table_rows``, issue 16): the template rendered a
dozen nodes for every tournament of every list, reversed a URL for each and looked up its labels on every request;
it was most of the section's time on the shared player page. The HTML is byte for byte what
``mahjong/_player.html`` wrote as a template (``tests/ratings/mahjong/test_player_html.py`` keeps the old template
and compares the two). What never changes with the data is worked out once per language: the translated labels,
the table headers, the guide's address and each list's address.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from html import escape

from django.conf import settings
from django.urls import get_script_prefix, reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, gettext_noop

from federation import formatting
from federation.charts import chart_html
from federation.table_rows import cell_text
from federation.tables import id_urls, url_with_id

_NUMBER = '<td class="text-end d-none d-md-table-cell">'
_IN_A = '<span class="badge text-bg-primary">A</span>'
_IN_B = '<span class="badge text-bg-success">B</span>'


@lru_cache(maxsize=8)
def _labels(language: str | None, prefix: str) -> dict[str, str]:
    """The section's fixed pieces, for the active language and script prefix: ``gettext`` and ``reverse`` read
    them, the arguments are the cache's key."""
    t = {key: escape(gettext(key)) for key in _TRANSLATED}
    return {
        "title": t["Riichi mahjong ratings"],
        "details": t["details"],
        "guide": f'<p class="small"><a class="guide-link" href="{escape(reverse("ratings:guide", args=["mahjong"]))}">'
        f"{t['How this rating works']}</a></p>\n",
        "ratings_head": (
            f'<thead><tr><th>{t["List"]}</th><th class="text-end col-rating">{t["Rating"]}</th>'
            f'<th class="text-end">{t["Rank"]}</th><th class="text-end">{t["Change"]}</th>'
            f'<th class="d-none d-md-table-cell">{t["As of"]}</th>'
            f'<th class="text-end d-none d-md-table-cell">{t["Part A"]}</th>'
            f'<th class="text-end d-none d-md-table-cell">{t["Part B"]}</th></tr></thead>'
        ),
        "not_listed": (
            f'<td colspan="6" class="text-muted small">{t["not listed (fewer than 2 tournaments counted)"]}</td>'
        ),
        "how": t["how the rating is made"],
        "breakdown_head": (
            f'<thead><tr><th>{t["Tournament"]}</th><th class="text-end">W·R·A</th>'
            f'<th class="text-end">{t["Place"]}</th><th class="d-none d-md-table-cell">{t["Date"]}</th>'
            '<th class="text-end d-none d-md-table-cell">W</th><th class="text-end d-none d-md-table-cell">R</th>'
            f'<th class="text-end d-none d-md-table-cell">A, %</th><th>{t["Parts"]}</th></tr></thead>'
        ),
        "chart": gettext("Rating and place over time"),
    }


_TRANSLATED = (
    gettext_noop("Riichi mahjong ratings"),
    gettext_noop("details"),
    gettext_noop("How this rating works"),
    gettext_noop("List"),
    gettext_noop("Rating"),
    gettext_noop("Rank"),
    gettext_noop("Change"),
    gettext_noop("As of"),
    gettext_noop("Part A"),
    gettext_noop("Part B"),
    gettext_noop("not listed (fewer than 2 tournaments counted)"),
    gettext_noop("how the rating is made"),
    gettext_noop("Tournament"),
    gettext_noop("Place"),
    gettext_noop("Date"),
    gettext_noop("Parts"),
)


@lru_cache(maxsize=64)
def _list_url(slug: str, language: str | None, prefix: str) -> str:
    """A list's page, reversed once per slug, language and script prefix (as ``_labels``: the key)."""
    return escape(reverse("ratings:mahjong:list", args=[slug]))


def _whole(value) -> str:
    """``{{ value }}`` of a whole number (a rank, a place): its digits, or as the template writes anything else."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return cell_text(value)


def _missing_or(score: dict, key: str, write) -> str:
    """A template's ``{{ score.key }}``: "" when the key is absent."""
    return write(score[key]) if key in score else ""


class _Writer:
    """One render's writer: the fixed pieces of the language, the tournaments' address around their id, and each date
    and number written once per render (a tournament is in two lists' breakdowns, RR and CRR, with the same date, W,
    R and A; ``formatting.day`` is the slowest of the values written). Equal numbers have one text
    (1 == 1.0 == Decimal("1.00") are all "1,00"), so they share it."""

    def __init__(self) -> None:
        self.language, self.prefix = get_language(), get_script_prefix()
        self.labels = _labels(self.language, self.prefix)
        self.tournament_url = id_urls("tournaments:tournament_detail")
        self._number = formatting.rating_writer(2)
        self.numbers: dict[object, str] = {}
        self.days: dict[object, str] = {}

    def number(self, value) -> str:
        text = self.numbers.get(value)
        if text is None:
            text = self.numbers[value] = self._number(value)
        return text

    def day(self, value) -> str:
        text = self.days.get(value)
        if text is None:
            text = self.days[value] = escape(formatting.day(value))
        return text

    def rating_row(self, row: dict) -> str:
        snapshot, entry = row["snapshot"], row["entry"]
        url = _list_url(row["list"].slug, self.language, self.prefix)
        if snapshot is not None:
            url += f"?date={snapshot.as_of.isoformat()}"
        head = f'<tr>\n    <td><a href="{url}">{escape(row["name"])}</a></td>\n    '
        if entry is None:
            return f"{head}{self.labels['not_listed']}\n  </tr>"
        details = entry.details
        change = formatting.delta(entry.delta, 2) if entry.delta is not None else ""
        return (
            f'{head}\n      <td class="text-end fw-bold">{self.number(entry.rating)}</td>'
            f'<td class="text-end">{_whole(entry.rank)}</td>\n'
            f'      <td class="text-end">{change}</td>\n'
            '      <td class="text-nowrap d-none d-md-table-cell">'
            f"{self.day(snapshot.as_of) if snapshot is not None else ''}</td>\n"
            f"      {_NUMBER}{self.number(details.get('part_a'))}</td>"
            f"{_NUMBER}{self.number(details.get('part_b'))}</td>\n    \n  </tr>"
        )

    def score_row(self, score: dict) -> str:
        """One tournament of a breakdown; a missing key is written as the template wrote it (empty)."""
        name = score.get("tournament")
        if name is not None:
            tournament = f'<a href="{self.tournament_url(score["t"])}">{escape(name)}</a>'
        else:  # deleted since the list was computed: its id
            tournament = escape(str(score.get("t", "")))
        get = score.get
        return (
            f"<tr>\n    <td>{tournament}</td>\n"
            f'    <td class="text-end fw-bold">{self.number(get("delta", ""))}</td>'
            f'<td class="text-end text-nowrap">{_missing_or(score, "place", _whole)} / '
            f"{_missing_or(score, 'players', _whole)}</td>\n"
            f'    <td class="text-nowrap d-none d-md-table-cell">{self.day(get("end"))}</td>\n'
            f"    {_NUMBER}{self.number(get('w', ''))}</td>{_NUMBER}{self.number(get('r', ''))}</td>"
            f"{_NUMBER}{self.number(get('a', ''))}</td>\n"
            f"    <td>{_IN_A if get('in_a') else ''} {_IN_B if get('in_b') else ''}</td>\n  </tr>"
        )

    def breakdown(self, row: dict) -> str:
        """A list's tournaments with W, R, A and the parts they are in, and the formula's lines in words."""
        scores = "".join(self.score_row(score) for score in row["scores"])
        formula = "".join(f"{escape(formatting.plain_explanation(line, self.language))}\n" for line in row["formula"])
        return (
            f'\n<h3 class="h5 mt-3">{escape(row["name"])}: {self.labels["how"]}</h3>\n'
            '<div class="table-container"><table class="table table-sm table-striped align-middle mahjong-breakdown"'
            f' data-list="{escape(row["list"].slug)}">\n  {self.labels["breakdown_head"]}\n  <tbody>{scores}</tbody>\n'
            f'</table></div>\n<pre class="small bg-light p-2 mahjong-formula">{formula}</pre>\n'
        )


def player_html(context: Mapping, *, in_section: bool) -> SafeString:
    """The section (``in_section``: with a link to the standalone page) or the standalone page's fragment, for the
    rows and chart of ``ratings.mahjong.sections.player_context``, in the active language."""
    writer = _Writer()
    labels = writer.labels
    details = ""
    if in_section:
        url = url_with_id("ratings:mahjong:player", context["player"].pk)
        details = f' <small><a class="small" href="{url}">{labels["details"]}</a></small>'
    rows = context["rows"]
    chart = context["chart"]
    parts = [
        '<div class="mahjong-player" id="mahjong-player">\n',
        f'<h2 class="h4">{labels["title"]}{details}</h2>\n',
        labels["guide"],
        '<div class="table-container"><table class="table table-sm align-middle" id="mahjong-player-ratings">\n',
        f"  {labels['ratings_head']}\n  <tbody>",
        *(writer.rating_row(row) for row in rows),
        "</tbody>\n</table></div>\n",
        chart_html(chart, "mahjong-chart", "mahjong-chart-data", labels["chart"]) if chart else "",
        "\n",
        *(writer.breakdown(row) for row in rows if row["entry"] is not None),
        "\n</div>\n",
    ]
    return SafeString("".join(parts))  # every value went through escape or is a number written by formatting
