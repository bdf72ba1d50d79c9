"""One way to write a rating, a change, a percentage, a date and a country, in the reader's language."""

import datetime
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from federation import formatting

DAY = datetime.date(2026, 11, 28)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "ru",
            ["1081,02", "-4,67", "+3", "0,00", "62,5\xa0%", "28.11.2026", "28 ноября 2026 г.", "20\xa0345,5", "Россия"],
        ),
        (
            "en",
            ["1081.02", "-4.67", "+3", "0.00", "62.5\xa0%", "28 Nov 2026", "28 November 2026", "20,345.5", "Russia"],
        ),
    ],
)
def test_numbers_and_dates_in_the_readers_language(language, expected):
    with translation.override(language):
        assert [
            formatting.rating(Decimal("1081.0234"), 2),
            formatting.delta(-4.6731, 2),
            formatting.delta(3, 0),
            formatting.delta(-0.001, 2),
            formatting.percent(62.5),
            formatting.day(DAY),
            formatting.long_day(DAY),
            formatting.rating(20345.5, 1),
            formatting.country("RU"),
        ] == expected


def test_absent_values_and_unknown_codes():
    assert formatting.rating(None, 2) == ""
    assert formatting.delta(None) == ""
    assert formatting.day(None) == ""
    assert formatting.rating(float("nan"), 2) == ""
    assert formatting.country("XX") == "XX"
    with translation.override("en"):
        assert formatting.day("2026-11-28") == "28 Nov 2026"


def test_the_template_filters_are_the_same_functions():
    template = Template("{% load fmt %}{{ r|rating:2 }} {{ d|delta:2 }} {{ day|day }} {{ c|country }}")
    with translation.override("ru"):
        assert (
            template.render(Context({"r": 837.14, "d": 1.5, "day": DAY, "c": "DE"}))
            == "837,14 +1,50 28.11.2026 Германия"
        )


@pytest.mark.parametrize(
    ("language", "engine_text", "shown"),
    [
        (
            "en",
            "part B = (the 4 largest W·R·A) / (MAXK1 + … + MAXK4) = (10) / (20) = 0.50",
            "part B = (the 4 largest W·R·A) / (the 4 largest W·A of all tournaments counted) = (10) / (20) = 0.50",
        ),
        (
            "ru",
            "часть B = (4 наибольших W·R·A) / (MAXK1 + … + MAXK4) = (10) / (20) = 0.50",
            "часть B = (4 наибольших W·R·A) / (4 наибольших W·A всех учтённых турниров) = (10) / (20) = 0,50",
        ),
        (
            "en",
            "reached 1800: promoted to the Pro league for good",
            "reached 1800: promoted to the Professional league for good",
        ),
        (
            "ru",
            "достигнут рейтинг 1800: переход в Про-лигу навсегда",
            "достигнут рейтинг 1800: переход в лигу профи навсегда",
        ),
        (
            "en",
            "steps n = ceil(5/(4 - 1)) = 2: 100 -> 103, m = 9 // 2",
            "steps n = ⌈5/(4 - 1)⌉ = 2: 100 → 103, m = 9 ÷ 2",
        ),
        ("ru", "выше на base = 12", "выше на основа = 12"),
    ],
)
def test_an_engines_explanation_reads_without_the_rules_notation(language, engine_text, shown):
    """MAXK, Pro, base, ceil, -> and // are the rules' notation; the pages show words and signs (issue 16)."""
    assert formatting.plain_explanation(engine_text, language) == shown


@pytest.mark.parametrize(
    ("language", "engine_text", "shown"),
    [
        ("ru", "Rt = 1237.269; A = 40.8", "Rt = 1237,269; A = 40,8"),
        ("en", "Rt = 1237.269; A = 40.8", "Rt = 1237.269; A = 40.8"),
        # The mahjong engine groups thousands with a space; the pages group from 10 000 on, as every rating.
        ("ru", "1 959.26 + 12 345.50", "1959,26 + 12\xa0345,50"),
        ("en", "1 959.26 + 12 345.50", "1959.26 + 12,345.50"),
        # Arguments of min/max take a semicolon beside a decimal comma.
        ("ru", "Vf = min(12.5/30, 4) = 0.42", "Vf = min(12,5/30; 4) = 0,42"),
        ("en", "Vf = min(12.5/30, 4) = 0.42", "Vf = min(12.5/30, 4) = 0.42"),
        ("ru", "в пределах [0.5, 2], = 1.2154", "в пределах [0,5; 2], = 1,2154"),
        # An ISO date as the page writes dates; what is not a number or a date is left alone.
        ("ru", "restricted by rank before 2026-03-01", "restricted by rank before 01.03.2026"),
        ("en", "restricted by rank before 2026-03-01", "restricted by rank before 1 Mar 2026"),
        ("ru", "log10(2), r17, v1.2.3, -2, 2026-13-01", "log10(2), r17, v1.2.3, -2, 2026-13-01"),
    ],
)
def test_an_explanations_numbers_and_dates_read_the_readers_way(language, engine_text, shown):
    """Issue 28: "40.8" and "1 959.26" on a Russian page that otherwise writes 837,14 and 28.11.2026."""
    with translation.override(language):
        assert formatting.plain_explanation(engine_text, language) == shown


@pytest.mark.parametrize(("language", "value", "shown"), [("ru", 6.5, "6,5"), ("en", 6.5, "6.5"), ("ru", 7, "7")])
def test_a_number_keeps_its_own_decimals(language, value, shown):
    with translation.override(language):
        assert formatting.number(value) == shown
