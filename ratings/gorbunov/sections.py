"""The Gorbunov fragments of the player's and the tournament's pages (``federation.sections``), listed in
``settings.PLAYER_PAGE_SECTIONS`` and ``settings.TOURNAMENT_PAGE_SECTIONS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape

from django.conf import settings
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from federation import charts, formatting
from federation.i18n import current_language
from federation.table_rows import cell_text
from federation.tables import id_urls
from ratings.gorbunov import selectors


def player_section(request, player) -> str | None:
    """Every Gorbunov list the player is rated in: the rating, the starting rating, the history's chart and the
    changes with their explanations.

    Written in Python from plain rows (issue 16): it was the largest section of a cold player's page (14 ms of 65
    for a player with 40 rated tournaments: model instances, a template with an include and translation blocks, and
    for every row a link reversed, a date and three numbers through Django's localisation). The HTML is, byte for
    byte, what the template wrote (``tests/ratings/gorbunov/test_player_section.py`` keeps the old path)."""
    language = current_language()
    lists = selectors.player_lists(player_id=player.pk, language=language)
    if not lists:
        return None
    write = _Writer(language)
    guide = escape(reverse("ratings:guide", args=["cards"]))
    return "".join(
        [
            f'\n<h2 class="h4">{write.labels.title}</h2>\n'
            f'<p class="small"><a class="guide-link" href="{guide}">{write.labels.guide}</a></p>\n',
            *(write.rating_list(item, index) for index, item in enumerate(lists)),
            "\n",
        ]
    )


player_section.reads = lambda request, player_id: selectors.player_list_statements(
    player_id=player_id, language=current_language()
)


@dataclass(frozen=True)
class _Labels:
    """The section's fixed texts in one language, escaped where the template's ``{% translate %}`` escaped them."""

    title: str
    guide: str
    counted: str  # "tournaments counted: %(n)s"
    starting: str  # "Starting rating %(rating)s, carried over from the federation's list of %(date)s."
    rating: str
    history: str
    table_head: str
    late: str
    why: str
    decimal_separator: str


@lru_cache(maxsize=8)
def _labels(language: str) -> _Labels:
    """Translated once per process and language: they change with neither the data nor the request."""
    with translation.override(language):
        # Each msgid written out, for makemessages.
        titles = [_("place"), _("participants"), _("tournament rating"), _("coefficient"), _("rating before")]
        date, tournament, change, explanation = (escape(_(w)) for w in ("Date", "Tournament", "Change", "Explanation"))
        head = [
            f'<th class="text-end d-none d-md-table-cell"><abbr title="{escape(title)}">{short}</abbr></th>'
            for short, title in zip(("M", "U", "Rt", "K", "Rs"), titles, strict=True)
        ]
        return _Labels(
            title=escape(_("Card-game ratings (Gorbunov)")),
            guide=escape(_("How this rating works")),
            counted=_("tournaments counted: %(n)s"),
            starting=_("Starting rating %(rating)s, carried over from the federation's list of %(date)s."),
            rating=_("Rating"),
            history=_("Rating history"),
            table_head=(
                '  <div class="table-responsive">\n'
                '  <table class="table table-sm table-striped align-middle small gorbunov-changes">\n'
                "    <thead><tr>\n"
                f"      <th>{date}</th><th>{tournament}</th>"
                f'<th class="text-end col-rating">{change}</th>\n'
                f"      {''.join(head[:2])}\n"
                f"      {''.join(head[2:])}<th>{explanation}</th>\n"
                "    </tr></thead>\n"
            ),
            late=' <span class="badge text-bg-warning">' + escape(_("late")) + "</span>",
            why=escape(_("why")),
            decimal_separator=formats.get_format("DECIMAL_SEPARATOR", lang=language, use_l10n=True),
        )


_NUMBER = '<td class="text-end d-none d-md-table-cell">'


class _Writer:
    """The section's HTML in one request's language: what is the same for every row (labels, the tournament link
    around its id, the date's format, the decimal separator) is looked up once."""

    def __init__(self, language: str):
        self.language = language
        self.labels = _labels(language)
        self.day = formatting.day_writer(language)
        self.whole = formatting.number_html(0, language)
        self.change_text = formatting.number_html(0, language, signed=True)
        self.hundredths = formatting.number_html(2, language)
        self.tournament_url = id_urls("tournaments:tournament_detail")
        self.ungrouped = not settings.USE_THOUSAND_SEPARATOR

    def rating_list(self, item: selectors.PlayerList, index: int) -> str:
        labels = self.labels
        url = escape(reverse("ratings:gorbunov:list_detail", args=[item.slug]))
        counted = labels.counted % {"n": cell_text(item.events)}
        starting = ""
        if item.starting:
            rating, list_date = item.starting
            text = labels.starting % {"rating": cell_text(floatformat(rating, 0)), "date": escape(self.day(list_date))}
            starting = f'<p class="small text-muted gorbunov-starting">{text}</p>'
        chart = ""
        if len(item.points) > 1:
            events = [charts.event(c["event_date"], c["tournament__name"]) for c in item.changes if c["tournament_id"]]
            series = [charts.series(item.name, item.points, stepped=True)]
            data = charts.time_chart(series, events=events, rating=labels.rating)
            chart = charts.chart_html(data, f"gorbunov-chart-{index}", f"gorbunov-chart-{index}-data", labels.history)
        rows = "\n".join([self.change(change) for change in item.changes])
        return (
            '\n<div class="mb-4 gorbunov-rating">\n'
            f'  <h3 class="h5"><a href="{url}">{escape(item.name)}</a>:\n'
            f"    <strong>{self.whole(item.rating)}</strong>\n"
            f'    <small class="text-muted">{counted}</small>\n'
            "  </h3>\n"
            f"  {starting}\n"
            f"  {chart}\n"
            f"{labels.table_head}"
            f"    <tbody>\n    {rows}\n    </tbody>\n"
            "  </table>\n"
            "  </div>\n"
            "</div>\n"
        )

    def change(self, change: dict) -> str:
        details = change["details"] or {}
        get = details.get
        tournament = ""
        if change["tournament_id"]:
            tournament = (
                f'<a href="{self.tournament_url(change["tournament_id"])}">{escape(change["tournament__name"])}</a>'
            )
        if get("late"):
            tournament += self.labels.late
        return (
            f'<tr><td class="text-nowrap">{escape(self.day(change["event_date"]))}</td>'
            f"<td>{tournament}</td>"
            f'<td class="text-end fw-bold">{self.change_text(change["delta"])}</td>'
            f"{_NUMBER}{self.number(get('M', ''))}</td>"
            f"{_NUMBER}{self.number(get('U', ''))}</td>"
            f"{_NUMBER}{self.hundredths(get('Rt', ''))}</td>"
            f"{_NUMBER}{self.number(get('K', ''))}</td>"
            f"{_NUMBER}{self.whole(change['before'])}</td>"
            f"<td><details><summary>{self.labels.why}</summary>"
            f"{escape(formatting.plain_explanation(change['explanation'], self.language))}</details></td>"
            "</tr>"
        )

    def number(self, value) -> str:
        """``{{ value }}`` (``cell_text``) of a value read from JSON. A whole number is its digits and a fraction
        Python's text with the language's separator, as Django's ``numberformat`` writes them ungrouped; anything
        else, or numbers grouped by the settings, through ``cell_text`` itself."""
        kind = type(value)
        if kind is int and self.ungrouped:
            return str(value)
        if kind is float and self.ungrouped and "e" not in (text := str(value)):
            return text.replace(".", self.labels.decimal_separator)
        return cell_text(value)


def tournament_section(request, tournament) -> str | None:
    items = selectors.tournament_ratings(tournament=tournament, today=timezone.localdate())
    if not items:
        return None
    language = current_language()
    rows = [
        {
            "item": item,
            "name": item.rating_list.display_name(language),
            "changes": [{"change": c, "explanation": c.explanation(language)} for c in item.changes],
        }
        for item in items
    ]
    return render_to_string("gorbunov/tournament_section.html", {"rows": rows})
