"""``federation.charts.chart_html`` writes what the ``_chart.html`` include writes, in both languages."""

import datetime as dt

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from federation import charts


@pytest.mark.parametrize("language", ["ru", "en"])
def test_chart_html_is_the_include(language):
    chart = charts.time_chart(
        [charts.series('Рейтинг <"A&B">', [(dt.date(2026, 1, 5), 101.5), (dt.date(2026, 3, 1), 99)], stepped=True)],
        events=[charts.event(dt.date(2026, 1, 5), "Кубок </script>")],
        rating="Rating",
    )
    with translation.override(language):
        template = render_to_string(
            "_chart.html", {"chart": chart, "chart_id": "c-1", "data_id": "c-1-data", "label": 'История "x"'}
        )
        python = charts.chart_html(chart, "c-1", "c-1-data", 'История "x"')
    assert python == template
    assert python.count("</script>") == 1  # a tournament named "</script>" cannot end the data early
