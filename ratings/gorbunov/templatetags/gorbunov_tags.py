"""``{% load gorbunov_tags %}``: ``{% change_rows item.changes %}``, the rows of a player's Gorbunov changes.

Written in Python for the same reason as the lists' rows (``federation.table_rows``, issue 16): a player with 40
rated tournaments had 600 template nodes here, a link reversed and an explanation rewritten for each row. The HTML
is what ``gorbunov/player_section.html`` wrote for them.
"""

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from federation import formatting
from federation.table_rows import cell_text
from federation.tables import url_with_id

register = template.Library()


@register.simple_tag
def change_rows(rows):
    late = escape(gettext("late"))
    why = escape(gettext("why"))
    lines = []
    for row in rows:
        change = row["change"]
        details = change.details or {}
        tournament = ""
        if change.tournament_id:
            url = url_with_id("tournaments:tournament_detail", change.tournament_id)
            tournament = f'<a href="{url}">{escape(change.tournament.name)}</a>'
        if details.get("late"):
            tournament += f' <span class="badge text-bg-warning">{late}</span>'
        lines.append(
            "<tr>"
            f'<td class="text-nowrap">{escape(formatting.day(change.event_date))}</td>'
            f"<td>{tournament}</td>"
            f'<td class="text-end fw-bold">{escape(formatting.delta(change.delta, 0))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{cell_text(details.get("M", ""))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{cell_text(details.get("U", ""))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{escape(formatting.rating(details.get("Rt", ""), 2))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{cell_text(details.get("K", ""))}</td>'
            f'<td class="text-end d-none d-md-table-cell">{escape(formatting.rating(change.before, 0))}</td>'
            f"<td><details><summary>{why}</summary>{escape(formatting.plain_explanation(row['explanation']))}"
            "</details></td>"
            "</tr>"
        )
    return mark_safe("\n".join(lines))  # every value went through escape
