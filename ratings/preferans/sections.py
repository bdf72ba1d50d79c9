"""The preferans fragment of the shared player page (``settings.PLAYER_PAGE_SECTIONS``): four queries at most, one
for a player without deals (``selectors.player_page``).

Written in Python, not by a template, for the reason of the lists' rows (``federation.table_rows``, issue 16): the
template resolved some forty variables and filters per row of the latest games and deals, reversed a game's URL for
each, and included the chart as another template. The HTML is what that template (``preferans/_player_section.html``)
wrote, to the byte: ``tests/ratings/preferans/test_player_section_html.py`` compares the two, in both languages.
"""

from __future__ import annotations

from functools import lru_cache

from django.urls import get_script_prefix, reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop

from federation import charts, formatting
from federation.i18n import current_language
from federation.models import Player
from federation.table_rows import escape
from federation.tables import id_urls
from ratings.preferans import selectors
from ratings.preferans.models import League

#: A rating's league as its page shows it (``get_league_display``: the label, or the stored value if unknown).
_LEAGUES = dict(League.choices)


def player_section(request, player) -> str | None:
    page = selectors.player_page(player_id=player.pk)
    return None if page is None else section_html(page)


player_section.reads = lambda request, player_id: selectors.player_page_statements(player_id=player_id)


def section_html(page: selectors.PlayerPage) -> SafeString:
    """The section in the current language; each part is a line or a block of the former template."""
    language = current_language()
    words = _words(language)
    days = _Days()
    game_url = id_urls("preferans:game_detail")
    parts = [_summary(page, words, language)]
    if page.games:
        chart = charts.time_chart(
            [charts.series(gettext("Rating after the game"), [(g.day, round(g.rating, 2)) for g in page.games])],
            rating=gettext("Rating"),
        )
        parts.append(
            "\n"
            + charts.chart_html(chart, "preferans-chart", "preferans-chart-data", gettext("Rating after each game"))
            + "\n"
        )
    parts.append("\n")
    if page.recent_games:
        parts.append(_games(page.recent_games, words, language, days, game_url))
    parts.append("\n")
    if page.deals:
        parts.append(_deals(page.deals, words, language, days, game_url))
    parts.append("\n</div>\n")
    return mark_safe("".join(parts))  # every value went through escape


class _Days(dict):
    """A date as the page writes it (``formatting.day``), worked out once per date of the page: a game's deals share
    its date."""

    def __missing__(self, value) -> SafeString:
        text = self[value] = escape(formatting.day(value))
        return text


@lru_cache(maxsize=16)
def _guide_url(language: str, prefix: str) -> str:
    """The guide's address, reversed once per language (and script prefix)."""
    return escape(reverse("ratings:guide", args=["preferans"]))


def _summary(page: selectors.PlayerPage, t: dict[str, SafeString], language: str) -> str:
    league = _LEAGUES.get(page.league, page.league)
    rating = formatting.rating
    return (
        f'\n<div id="preferans">\n<h2 class="h4">{t["title"]}</h2>\n'
        f'<p class="small"><a class="guide-link" href="{_guide_url(language, get_script_prefix())}">'
        f"{t['guide']}</a></p>\n"
        '<dl class="row small mb-2">\n'
        f'  <dt class="col-6 col-sm-3">{t["rating"]}</dt><dd class="col-6 col-sm-9" id="preferans-rating">'
        f"{escape(rating(page.rating, 2))}</dd>\n"
        f'  <dt class="col-6 col-sm-3">{t["highest"]}</dt><dd class="col-6 col-sm-9">'
        f"{escape(rating(page.max_rating, 2))}</dd>\n"
        f'  <dt class="col-6 col-sm-3">{t["league"]}</dt><dd class="col-6 col-sm-9">{escape(league)}</dd>\n'
        f'  <dt class="col-6 col-sm-3">{t["deals"]}</dt><dd class="col-6 col-sm-9">{page.deals_played}</dd>\n'
        f"</dl>\n{_starting(page)}\n"
    )


def _starting(page: selectors.PlayerPage) -> str:
    """The starting rating carried over from the federation's list (the template's ``blocktranslate``: the sentence
    as translated, its values escaped)."""
    if page.start_date is None:
        return ""
    sentence = gettext(
        "Starting rating %(rating)s (highest %(peak)s, league: %(league)s), carried over from the federation's list "
        "of %(date)s."
    )
    league = League(page.start_league).label if page.start_league in League.values else ""
    rating = formatting.rating
    values = {
        "rating": escape(rating(page.start_rating, 2)),
        "peak": escape(rating(page.start_max_rating or page.start_rating, 2)),
        "league": escape(league),
        "date": page.start_date.isoformat(),
    }
    return f'<p class="small text-muted preferans-starting">{sentence % values}</p>'


@lru_cache(maxsize=4)
def _words(language: str) -> dict[str, SafeString]:
    """The section's words in a language, escaped, translated once per process."""
    words = {
        "title": gettext_noop("Preferans rating"),
        "guide": gettext_noop("How this rating works"),
        "rating": gettext_noop("Rating"),
        "highest": gettext_noop("Highest rating"),
        "league": gettext_noop("League"),
        "deals": gettext_noop("Deals"),
        "recent_games": gettext_noop("Recent games"),
        "date": gettext_noop("Date"),
        "table": gettext_noop("Table"),
        "change": gettext_noop("Change"),
        "recent_deals": gettext_noop("Recent deals"),
        "game": gettext_noop("Game"),
        "whists": gettext_noop("Whists"),
        "after": gettext_noop("After"),
        "how": gettext_noop("How"),
        "formula": gettext_noop("formula"),
    }
    return {key: escape(gettext(text)) for key, text in words.items()}


def _games(games, t: dict[str, SafeString], language: str, days: _Days, game_url) -> str:
    delta = formatting.delta
    rows = "".join(
        f'<tr><td><a href="{game_url(game.game_id)}">{days[game.day]}</a></td>\n'
        f'    <td class="name">{", ".join(escape(Player.name_in(language, *names)) for names in game.table)}</td>\n'
        f'    <td class="text-end">{game.deals}</td><td class="text-end">{escape(delta(game.delta, 2))}</td></tr>'
        for game in games
    )
    return (
        f'\n<h3 class="h5 mt-3">{t["recent_games"]}</h3>\n'
        '<div class="table-container"><table class="table table-sm" id="preferans-games">\n'
        f'  <thead><tr><th>{t["date"]}</th><th>{t["table"]}</th><th class="text-end">{t["deals"]}</th>'
        f'<th class="text-end">{t["change"]}</th></tr></thead>\n'
        f"  <tbody>{rows}</tbody>\n"
        "</table></div>\n"
    )


def _deals(deals, t: dict[str, SafeString], language: str, days: _Days, game_url) -> str:
    rating, delta, plain = formatting.rating, formatting.delta, formatting.plain_explanation
    russian = language == "ru"
    rows = "".join(
        f'<tr><td><a href="{game_url(deal.game_id)}">{days[deal.day]} · {deal.number}</a></td>\n'
        f'    <td class="text-end">{deal.whists}</td><td class="text-end">{escape(delta(deal.delta, 2))}</td>'
        f'<td class="text-end">{escape(rating(deal.rating_after, 2))}</td>\n'
        f'    <td class="small text-wrap"><details><summary>{t["formula"]}</summary>'
        f"{escape(plain(deal.explanation.ru if russian else deal.explanation.en, language))}"
        "</details></td></tr>"
        for deal in deals
    )
    return (
        f'\n<h3 class="h5 mt-3">{t["recent_deals"]}</h3>\n'
        '<div class="table-container"><table class="table table-sm align-top" id="preferans-deals">\n'
        f'  <thead><tr><th>{t["game"]}</th><th class="text-end">{t["whists"]}</th>'
        f'<th class="text-end">{t["change"]}</th><th class="text-end">{t["after"]}</th>'
        f"<th>{t['how']}</th></tr></thead>\n"
        f"  <tbody>{rows}</tbody>\n"
        "</table></div>\n"
    )
