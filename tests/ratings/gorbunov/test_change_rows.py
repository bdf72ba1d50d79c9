"""A player's Gorbunov changes written in Python (``{% change_rows %}``, issue 16) are the rows the section's
template wrote: dates, links, the late badge, the numbers in the reader's language and the explanation in words."""

import re

import pytest
from django.template import Context, Template
from django.utils import translation

from ratings.gorbunov import selectors, services
from ratings.models import RatingChange
from tests.ratings.gorbunov.conftest import week

pytestmark = pytest.mark.django_db

#: The rows as gorbunov/player_section.html wrote them before (the reference).
OLD_ROWS = """{% load i18n fmt %}{% for row in changes %}{% with c=row.change %}
      <tr>
        <td class="text-nowrap">{{ c.event_date|day }}</td>
        <td>{% if c.tournament_id %}<a href="{% url 'tournaments:tournament_detail' c.tournament_id %}">\
{{ c.tournament.name }}</a>{% endif %}{% if c.details.late %} <span class="badge text-bg-warning">\
{% translate "late" %}</span>{% endif %}</td>
        <td class="text-end fw-bold">{{ c.delta|delta:0 }}</td>
        <td class="text-end d-none d-md-table-cell">{{ c.details.M }}</td>\
<td class="text-end d-none d-md-table-cell">{{ c.details.U }}</td>
        <td class="text-end d-none d-md-table-cell">{{ c.details.Rt|rating:2 }}</td>\
<td class="text-end d-none d-md-table-cell">{{ c.details.K }}</td>
        <td class="text-end d-none d-md-table-cell">{{ c.before|rating:0 }}</td>
        <td><details><summary>{% translate "why" %}</summary>{{ row.explanation|plain }}</details></td>
      </tr>
    {% endwith %}{% endfor %}"""


def _norm(html: str) -> str:
    html = re.sub(r"\s+", " ", html)
    return re.sub(r">\s+<", "><", html).replace("> ", ">").replace(" <", "<").strip()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_rows_are_the_templates(gorbunov_list, season, field, language):
    for n in range(1, 6):
        services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(n))
    late = RatingChange.objects.filter(player=field[0]).order_by("id").first()
    late.details = {**late.details, "late": True, "K": 1.5}
    late.save()
    tournament = late.tournament
    tournament.name = "Кубок <b>&</b>"
    tournament.save()
    with translation.override(language):
        (rating,) = selectors.player_ratings(player=field[0])
        changes = [{"change": c, "explanation": c.explanation(language)} for c in rating.changes]
        assert len(changes) >= 4
        context = Context({"changes": changes})
        old = Template(OLD_ROWS).render(context)
        new = Template("{% load gorbunov_tags %}{% change_rows changes %}").render(context)
    assert _norm(old) == _norm(new)
    assert "Кубок &lt;b&gt;&amp;&lt;/b&gt;" in new
    assert ("1,5" if language == "ru" else "1.5") in new
    assert 'class="badge text-bg-warning"' in new
