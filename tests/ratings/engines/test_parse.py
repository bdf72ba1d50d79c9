"""Reading the engines' input: one wording for each kind of mistake, the field named, whatever the system.

No database."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engines.common import EngineError
from ratings.engines.parse import (
    check_keys,
    integral,
    is_number,
    is_whole,
    parse_bool,
    parse_date,
    parse_int,
    parse_list,
    parse_map,
    parse_number,
    parse_object,
    parse_str,
    require,
)


def message(call) -> str:
    with pytest.raises(EngineError) as error:
        call()
    return str(error.value)


def test_numbers_refuse_booleans_and_infinities():
    assert is_number(1)
    assert is_number(1.5)
    assert not is_number(True)
    assert not is_number(float("inf"))
    assert not is_number(float("nan"))
    assert not is_number("1")
    assert is_whole(3)
    assert not is_whole(3.0)
    assert not is_whole(False)
    assert type(integral(3.0)) is int
    assert integral(3.0) == 3
    assert integral(3.5) == 3.5


def test_each_mistake_has_one_wording_naming_the_field():
    assert message(lambda: require({}, "k", "tournaments[0]")) == "tournaments[0].k: missing"
    assert message(lambda: require({}, "rounds", hint=" (of the tournament)")) == "rounds: missing (of the tournament)"
    assert message(lambda: parse_object([], "options")) == "options: is not an object"
    assert message(lambda: parse_list({}, "games", what="a list of rounds")) == "games: is not a list of rounds"
    assert message(lambda: parse_bool("yes", "options.draws")) == "options.draws: 'yes' is not true or false"
    assert message(lambda: parse_str("", "players[0].id")) == "players[0].id: '' is not a non-empty string"
    assert message(lambda: parse_int(1.5, "k")) == "k: 1.5 is not a whole number"
    assert message(lambda: parse_int(0, "stages[0].hanchans", minimum=1)) == "stages[0].hanchans: 0 is smaller than 1"
    assert message(lambda: parse_number(True, "ratings.ann")) == "ratings.ann: True is not a number"
    assert message(lambda: check_keys({"colour": 1}, ["rounds", "seed"])) == (
        "colour: unknown key (expected one of rounds, seed)"
    )


def test_dates_are_iso_and_nothing_looser():
    assert parse_date("2026-03-07", "date") == dt.date(2026, 3, 7)
    assert parse_date(dt.date(2026, 3, 7), "date") == dt.date(2026, 3, 7)
    for bad in ("2026-02-30", "2026-3-7", "20260307", "2026-W10-6", "07.03.2026", 20260307, None):
        assert message(lambda bad=bad: parse_date(bad, "date")) == f"date: {bad!r} is not a date (YYYY-MM-DD)"
    moment = dt.datetime(2026, 3, 7, tzinfo=dt.UTC)
    assert message(lambda: parse_date(moment, "date")).startswith("date: datetime.datetime(")


def test_player_maps_read_each_value_under_its_own_path():
    assert parse_map({"ann": 1000, "bob": 1.5}, "ratings", parse_number) == {"ann": 1000, "bob": 1.5}
    assert message(lambda: parse_map([], "bots", parse_number)) == "bots: is not an object of player: number"
    assert message(lambda: parse_map({"ann": "high"}, "ratings", parse_number)) == "ratings.ann: 'high' is not a number"
