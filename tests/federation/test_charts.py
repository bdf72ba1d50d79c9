"""The ``_chart.html`` include: the chart's data as JSON that no name can end early, and a labelled canvas."""

import datetime as dt
import json
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from federation import charts


@pytest.mark.parametrize(("language", "events"), [("ru", "Турниры"), ("en", "Tournaments")])
def test_the_chart_include_carries_its_data_and_label(language, events):
    chart = charts.time_chart(
        [charts.series('Рейтинг <"A&B">', [(dt.date(2026, 1, 5), 101.5), (dt.date(2026, 3, 1), 99)], stepped=True)],
        events=[charts.event(dt.date(2026, 1, 5), "Кубок </script>")],
        rating="Rating",
    )
    with translation.override(language):
        html = render_to_string(
            "_chart.html", {"chart": chart, "chart_id": "c-1", "data_id": "c-1-data", "label": 'История "x"'}
        )
    assert html.count("</script>") == 1  # a tournament named "</script>" cannot end the data early
    data = re.search(r'<script id="c-1-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    assert json.loads(data) == json.loads(json.dumps(chart, default=str))
    assert 'aria-label="История &quot;x&quot;"' in html
    assert f'data-events="{events}"' in html
