"""The faster ways to the same text (issue 16): ``formatting.day_writer`` writes every date as ``formatting.day``
does, and ``formatting.plain_explanation``, which skips a rule whose text is absent, reads as running every rule."""

import datetime

import pytest
from django.utils import dateformat, translation
from hypothesis import given
from hypothesis import strategies as st

from federation import formatting


@pytest.fixture
def fresh_writers():
    formatting.day_writer.cache_clear()
    yield
    formatting.day_writer.cache_clear()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_day_of_four_years_is_written_as_day_writes_it(language, fresh_writers):
    start = datetime.date(2024, 1, 1)
    with translation.override(language):
        write = formatting.day_writer(language)
        for n in range(4 * 366):
            day = start + datetime.timedelta(days=n)
            assert write(day) == formatting.day(day)
        assert write(datetime.date(2026, 11, 28)) == ("28.11.2026" if language == "ru" else "28 Nov 2026")
        evening = datetime.datetime(2026, 11, 28, 23, 30, tzinfo=datetime.UTC)
        for other in (None, "", "2026-11-28", "not a date", evening):
            assert write(other) == formatting.day(other)


def test_escaped_letters_braces_and_month_names(monkeypatch, fresh_writers):
    form = r"\d\a\y j {b} F E y/n/m d, \Y Y M"
    monkeypatch.setattr(formatting.formats, "get_format", lambda *args, **kwargs: form)
    with translation.override("ru"):
        write = formatting.day_writer("ru")
        for day in (datetime.date(2026, 5, 3), datetime.date(1999, 12, 31), datetime.date(2005, 1, 9)):
            assert write(day) == dateformat.format(day, form)
        assert write(datetime.date(2026, 5, 3)) == "day 3 {май} Май мая 26/5/05 03, Y 2026 Май"


def test_a_format_with_other_letters_is_left_to_day(monkeypatch, fresh_writers):
    monkeypatch.setattr(formatting.formats, "get_format", lambda *args, **kwargs: "D, j M Y")
    assert formatting.day_writer("en") is formatting.day


def _every_rule(text: str, language: str) -> str:
    """``plain_explanation`` as it was: each rule run in turn over the text."""
    if not text:
        return ""
    rules = [*formatting._PLAIN, *formatting._WORDS["ru" if language == "ru" else "en"]]
    for pattern, replacement, _needed in rules:
        text = pattern.sub(replacement, text)
    return text


PIECES = [
    *("->", " -> ", "ceil(", "floor(", "(", ")", " // ", "//", "base", "based", "Pro", "Professional", "Про-лигу"),
    *("MAXK1 + … + MAXK4", "MAXK", "MAXK3", "переход в лигу навсегда", "переход в ", "лигу навсегда", " ", "x", "7"),
]


@given(st.lists(st.sampled_from(PIECES), max_size=12), st.sampled_from(["ru", "en"]))
def test_skipping_a_rule_whose_text_is_absent_changes_nothing(pieces, language):
    text = "".join(pieces)
    assert formatting.plain_explanation(text, language) == _every_rule(text, language)
