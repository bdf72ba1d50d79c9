"""``formatting.number_html``: the same text as ``escape(rating(...))`` and ``escape(delta(...))``, written faster."""

import math
from decimal import Decimal
from html import escape

import pytest
from django.utils import translation

from federation import formatting

VALUES = [
    *(None, "", "abc", "<b>", True, False, 0, 1, -1, 7, -7, 9999, -9999, 10_000, -10_000, 123_456, -123_456),
    *(0.0, -0.0, 0.001, -0.001, 0.005, -0.005, 0.5, -0.5, 1.25, 2.675, 1e-7, 1e21, -3.14159, 9999.995, 9999.994),
    *(math.nan, math.inf, -math.inf, 12.0, 1081.02, -4.67, 10_000.0, 20_345.5),
    *(Decimal("0"), Decimal("-0"), Decimal("-0.0001"), Decimal("0.4999"), Decimal("0.5"), Decimal("-0.5")),
    *(Decimal("1081.0200"), Decimal("-4.6700"), Decimal("9999.9999"), Decimal("-9999.9951"), Decimal("10000")),
    *(Decimal("12345.678"), Decimal("NaN"), Decimal("Infinity"), Decimal("-Infinity"), Decimal("1E+3")),
]


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("places", [0, 1, 2, 4])
@pytest.mark.parametrize("grouped", [False, True])
def test_number_html_writes_what_rating_and_delta_write_escaped(language, places, grouped, settings):
    settings.USE_THOUSAND_SEPARATOR = grouped
    with translation.override(language):
        rating = formatting.number_html(places, language)
        delta = formatting.number_html(places, language, signed=True)
        for value in VALUES:
            assert rating(value) == escape(formatting.rating(value, places)), (value, places)
            try:
                expected = escape(formatting.delta(value, places))
            except Exception as error:  # delta cannot sign a text that is not a number: neither can the writer
                with pytest.raises(type(error)):
                    delta(value)
            else:
                assert delta(value) == expected, (value, places)
