"""Gorbunov engine: the worked examples of `rules/gorbunov.md`, its decisions, properties, and ``rate_document``."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines.common import EngineError
from ratings.engines.gorbunov import (
    RULE_FINALIST,
    RULE_FLOOR,
    RULE_LAST,
    RULE_SEALED,
    RULE_SECOND_TO_LAST,
    RULE_SQRT,
    RULE_WINNER,
    GorbunovSettings,
    Placement,
    RatedTournament,
    effective_k,
    rate_document,
    rate_season,
    rate_tournament,
    rate_week,
    week_start,
)

SATURDAY = dt.date(2026, 3, 7)


def field_for(place: int, *, rs: int, strength: int, players: int, k: int = 4, tournament_format: str = ""):
    """A field of ``players`` where "ann" (rated ``rs``) takes ``place`` and the mean rating is ``strength``."""
    others = [f"x{i}" for i in range(players - 1)]
    ratings = dict.fromkeys(others, 100)
    ratings[others[0]] += strength * players - rs - 100 * (players - 1)
    ratings["ann"] = rs
    order = list(others)
    order.insert(place - 1, "ann")
    tournament = RatedTournament(
        id="t",
        date=SATURDAY,
        k=k,
        format=tournament_format,
        results=tuple(Placement(p, i) for i, p in enumerate(order, start=1)),
    )
    return tournament, ratings


def ann_change(place: int, **kwargs):
    tournament, ratings = field_for(place, **kwargs)
    outcome = rate_tournament(tournament, ratings)
    return next(c for c in outcome.changes if c.player == "ann")


# --- worked example A: Rt = 130, Rs = 190, K = 4, U = 12 -----------------------------------------------------------


@pytest.mark.parametrize(
    ("place", "tournament_format", "base", "delta", "after"),
    [
        (1, "", 9.2, 37, 227),  # 12 + 1 - 2 + 3 - 4.8 = 9.2; 36.8 -> 37
        (2, "", 5.7, 23, 213),  # 9 + 1.5 - 4.8 = 5.7; 22.8 -> 23
        (6, "", -3.8, -15, 175),  # 1 - 4.8 = -3.8; -15.2 -> -15
        (10, "", -11.8, -47, 143),  # -7 - 4.8 = -11.8; -47.2 -> -47, Rn = 143
        (10, "sealed", -11.8, -45, 145),  # capped at -floor(90 / 2) = -45, Rn = 145
    ],
)
def test_example_a(place, tournament_format, base, delta, after):
    change = ann_change(place, rs=190, strength=130, players=12, tournament_format=tournament_format)
    assert change.context.strength == 130
    assert change.base == pytest.approx(base)
    assert change.delta == delta
    assert change.after == after
    assert (RULE_SEALED in change.rules) == (tournament_format == "sealed")


def test_example_a_explanation_shows_the_numbers():
    change = ann_change(1, rs=190, strength=130, players=12)
    text = change.explanation.en
    assert "base = U + 1 - 2M + U/4 + (Rt - Rs)(U + 4)/200 = 12 + 1 - 2 + 3 + (130 - 190)·16/200 = 9.2" in text
    assert "I = round(base·K) = round(9.2·4) = round(36.8) = 37" in text
    assert "12 + 1 - 2 + 3 + (130 - 190)·16/200 = 9.2" in change.explanation.ru


def test_example_a_sealed_explanation_names_the_cap():
    change = ann_change(10, rs=190, strength=130, players=12, tournament_format="sealed")
    assert "sealed cap" in change.explanation.en
    assert "-floor((190 - 100)/2) = -45" in change.explanation.en
    assert "ограничение" in change.explanation.ru


# --- worked example B: Rt = 230, Rs = 150, K = 4, U = 16 -----------------------------------------------------------


@pytest.mark.parametrize(
    ("place", "base", "delta"),
    [
        (1, 27, 108),  # 15 + 4 + 8 = 27; the seed's 104 took U/4 as 3, the formula gives 4
        (4, 17, 68),  # 9 + 8
        (12, 1, 4),  # -7 + 8
        (13, -1, -4),  # -9 + 8
    ],
)
def test_example_b(place, base, delta):
    change = ann_change(place, rs=150, strength=230, players=16)
    assert change.base == base
    assert change.delta == delta


def test_example_b_first_place_new_rating_is_258():
    tournament, ratings = field_for(1, rs=150, strength=230, players=16)
    week = rate_week(ratings, [tournament])
    assert week.new_ratings["ann"] == 258


# --- common-sense rules and their order ------------------------------------------------------------------------------


def four_player_tournament(ratings_in_place_order, *, k=1, tournament_format="", date=SATURDAY, sqrt_rule=None):
    players = [f"p{i}" for i in range(1, len(ratings_in_place_order) + 1)]
    tournament = RatedTournament(
        id="t",
        date=date,
        k=k,
        format=tournament_format,
        sqrt_rule=sqrt_rule,
        results=tuple(Placement(p, i) for i, p in enumerate(players, start=1)),
    )
    return tournament, dict(zip(players, ratings_in_place_order, strict=True))


def test_winner_gains_at_least_3_times_k():
    # A strong winner against a weak field: U + 1 - 2 + U/4 = 4, (Rt - Rs)(8)/200 with Rt = 325, Rs = 1000: -27.
    tournament, ratings = four_player_tournament([1000, 100, 100, 100], k=2)
    change = rate_tournament(tournament, ratings).changes[0]
    assert change.delta == 6
    assert RULE_WINNER in change.rules


def test_finalist_cannot_lose():
    tournament, ratings = four_player_tournament([100, 1000, 100, 100], k=4)
    change = rate_tournament(tournament, ratings).changes[1]
    assert change.delta == 0
    assert change.rules == (RULE_FINALIST,)


def test_second_to_last_cannot_gain():
    # Rs = 100 against a field of 1000: base = 4 + 1 - 6 + (775 - 100)·8/200 = 26 -> 0.
    tournament, ratings = four_player_tournament([1000, 1000, 100, 1000])
    change = rate_tournament(tournament, ratings).changes[2]
    assert change.delta == 0
    assert change.rules == (RULE_SECOND_TO_LAST,)


def test_last_loses_at_least_3_times_k():
    tournament, ratings = four_player_tournament([1000, 1000, 1000, 900], k=4)
    change = rate_tournament(tournament, ratings).changes[3]
    assert change.delta == -12
    assert RULE_LAST in change.rules


def test_floor_cuts_the_loss_of_the_last_place():
    tournament, ratings = four_player_tournament([200, 200, 200, 101], k=16)
    change = rate_tournament(tournament, ratings).changes[3]
    assert change.delta == -1
    assert change.after == 100
    assert RULE_FLOOR in change.rules


def test_order_with_two_players_winner_plus_3k_loser_minus_3k():
    tournament, ratings = four_player_tournament([100, 100], k=4)
    outcome = rate_tournament(tournament, ratings, GorbunovSettings(min_participants=2))
    winner, loser = outcome.changes
    # Rule 3 first (the winner is also second-to-last: base 2 -> 0), then rule 1: at least 3, so +12.
    assert winner.delta == 12
    assert winner.rules == (RULE_SECOND_TO_LAST, RULE_WINNER)
    # Rule 2 first (the loser is also the finalist: base -1 -> 0), then rule 4: at least -3, so -12 ... floored.
    assert loser.rules[:2] == (RULE_FINALIST, RULE_LAST)
    tournament, ratings = four_player_tournament([300, 300], k=4)
    loser = rate_tournament(tournament, ratings, GorbunovSettings(min_participants=2)).changes[1]
    assert loser.delta == -12


def test_three_players_second_place_gets_exactly_zero():
    tournament, ratings = four_player_tournament([500, 100, 900], k=1)
    outcome = rate_tournament(tournament, ratings, GorbunovSettings(min_participants=3))
    assert outcome.changes[1].delta == 0


def test_square_root_rule():
    # 3rd of 9 cannot lose (9 <= 9), 3rd of 8 can.
    strong = [100] * 9
    strong[2] = 2000
    tournament, ratings = four_player_tournament(strong, sqrt_rule=True)
    change = rate_tournament(tournament, ratings).changes[2]
    assert change.delta == 0
    assert RULE_SQRT in change.rules
    strong = [100] * 8
    strong[2] = 2000
    tournament, ratings = four_player_tournament(strong, sqrt_rule=True)
    assert rate_tournament(tournament, ratings).changes[2].delta < 0


def test_square_root_rule_from_the_list_settings():
    strong = [100] * 16
    strong[3] = 2000
    tournament, ratings = four_player_tournament(strong)
    assert rate_tournament(tournament, ratings).changes[3].delta < 0
    assert rate_tournament(tournament, ratings, GorbunovSettings(sqrt_rule=True)).changes[3].delta == 0


def test_draft_adds_one_to_k_from_april_2004():
    tournament, ratings = four_player_tournament([100] * 4, k=4, tournament_format="draft")
    assert effective_k(tournament) == 5
    assert rate_tournament(tournament, ratings).changes[0].delta == 5 * 4  # base 4 + 1 - 2 + 1 = 4
    old, _ = four_player_tournament([100] * 4, k=4, tournament_format="draft", date=dt.date(2004, 3, 31))
    assert effective_k(old) == 4
    settings_2010 = GorbunovSettings(draft_bonus_since=dt.date(2010, 1, 1))
    assert effective_k(tournament, settings_2010) == 5
    assert effective_k(old, settings_2010) == 4


def test_half_is_rounded_away_from_zero_exactly():
    # U = 4, all at 200: bases 4, 4 + 1 - 4 + 0.5 = 1.5 -> 2, 4 + 1 - 6 = -1, 4 + 1 - 8 = -3.
    tournament, ratings = four_player_tournament([200] * 4, k=1)
    changes = rate_tournament(tournament, ratings).changes
    assert [c.delta for c in changes] == [4, 2, -1, -3]


def test_too_small_tournament_is_not_rated_with_a_reason():
    tournament, ratings = four_player_tournament([300, 300, 300])
    outcome = rate_tournament(tournament, ratings)
    assert not outcome.rated
    assert outcome.changes == ()
    assert "at least 4" in outcome.reason.en
    assert "не меньше 4" in outcome.reason.ru


def test_min_participants_must_be_at_least_two():
    with pytest.raises(EngineError) as error:
        GorbunovSettings(min_participants=1)
    assert error.value.field == "settings.min_participants"


# --- weeks and seasons ----------------------------------------------------------------------------------------------


def test_week_start_is_monday():
    assert week_start(dt.date(2026, 3, 8)) == dt.date(2026, 3, 2)  # Sunday
    assert week_start(dt.date(2026, 3, 9)) == dt.date(2026, 3, 9)  # Monday


def test_tournaments_of_one_week_use_start_of_week_ratings_and_sum():
    players = ["a", "b", "c", "d"]
    first = RatedTournament("t1", dt.date(2026, 3, 3), 4, tuple(Placement(p, i) for i, p in enumerate(players, 1)))
    second = RatedTournament("t2", dt.date(2026, 3, 8), 4, tuple(Placement(p, i) for i, p in enumerate(players, 1)))
    season = rate_season({}, [second, first])
    assert len(season.weeks) == 1
    week = season.weeks[0]
    assert [o.tournament.id for o in week.tournaments] == ["t1", "t2"]
    assert [c.before for c in week.tournaments[1].changes] == [100, 100, 100, 100]
    # Each tournament: bases 4, 1.5, -1, -3 at K = 4 give 16, 6, and for c and d the floor of 100 keeps 0.
    assert season.ratings == {"a": 132, "b": 112, "c": 100, "d": 100}
    assert week.totals == {"a": 32, "b": 12, "c": 0, "d": 0}
    assert week.explanation("a").en == "Rn = max(100, Rs + sum of I) = max(100, 100 + 16 + 16) = 132"


def test_next_week_starts_from_the_new_ratings():
    players = ["a", "b", "c", "d"]
    first = RatedTournament("t1", dt.date(2026, 3, 8), 4, tuple(Placement(p, i) for i, p in enumerate(players, 1)))
    second = RatedTournament("t2", dt.date(2026, 3, 9), 4, tuple(Placement(p, i) for i, p in enumerate(players, 1)))
    season = rate_season({"e": 150}, [first, second])
    assert len(season.weeks) == 2
    assert [c.before for c in season.weeks[1].tournaments[0].changes] == [116, 106, 100, 100]
    assert season.ratings["e"] == 150


def test_sealed_tournaments_of_one_week_each_use_the_same_cap():
    # a (150) last of 4 at K = 16: base 1.5 -> -3 (rule 4) -> -48, capped at -floor(50/2) = -25 in each.
    ratings = {"a": 150, "b": 300, "c": 300, "d": 300}
    results = tuple(Placement(p, i) for i, p in enumerate(["b", "c", "d", "a"], 1))
    tournaments = [RatedTournament(f"t{i}", SATURDAY, 16, results, format="sealed") for i in range(2)]
    season = rate_season(ratings, tournaments)
    assert [c.delta for w in season.weeks for o in w.tournaments for c in o.changes if c.player == "a"] == [-25, -25]
    assert season.ratings["a"] == 100


# --- validation -----------------------------------------------------------------------------------------------------


def bad(tournament_changes=None, result_changes=None):
    results = [Placement("a", 1), Placement("b", 2), Placement("c", 3), Placement("d", 4)]
    if result_changes:
        results = result_changes(results)
    values = {"id": "t", "date": SATURDAY, "k": 1, "results": tuple(results)}
    values.update(tournament_changes or {})
    return RatedTournament(**values)


@pytest.mark.parametrize(
    ("tournament", "field", "message"),
    [
        (bad(result_changes=lambda r: [*r[:3], Placement("d", 5)]), "tournaments[0].results[3].place", "larger"),
        (bad(result_changes=lambda r: [*r[:3], Placement("d", 0)]), "tournaments[0].results[3].place", "smaller"),
        (bad(result_changes=lambda r: [*r[:3], Placement("d", 2.0)]), "tournaments[0].results[3].place", "whole"),
        (bad(result_changes=lambda r: [*r[:3], Placement("d", 3)]), "tournaments[0].results[3].place", "also"),
        (bad(result_changes=lambda r: [*r[:3], Placement("a", 4)]), "tournaments[0].results[3].player", "also"),
        (bad({"k": 0}), "tournaments[0].k", "positive"),
        (bad({"k": 1.5}), "tournaments[0].k", "positive"),
        (bad({"k": True}), "tournaments[0].k", "positive"),
        (bad({"date": "2026-03-07"}), "tournaments[0].date", "not a date"),
    ],
)
def test_validation_names_the_field(tournament, field, message):
    with pytest.raises(EngineError) as error:
        rate_season({}, [tournament])
    assert error.value.field == field
    assert message in error.value.message


def test_validation_of_duplicate_tournament_ids_and_low_ratings():
    with pytest.raises(EngineError, match=r"tournaments\[1\]\.id"):
        rate_season({}, [bad(), bad()])
    with pytest.raises(EngineError, match=r"ratings\.a: 99 is below the floor of 100"):
        rate_season({"a": 99}, [bad()])


# --- properties -----------------------------------------------------------------------------------------------------


@st.composite
def tournaments(draw):
    size = draw(st.integers(min_value=4, max_value=30))
    ratings = draw(st.lists(st.integers(min_value=100, max_value=3000), min_size=size, max_size=size))
    k = draw(st.sampled_from([1, 2, 3, 4, 8, 16]))
    tournament_format = draw(st.sampled_from(["", "sealed", "draft"]))
    sqrt_rule = draw(st.booleans())
    return four_player_tournament(ratings, k=k, tournament_format=tournament_format, sqrt_rule=sqrt_rule)


@settings(max_examples=200, deadline=None)
@given(tournaments())
def test_nobody_ends_below_100(data):
    tournament, ratings = data
    outcome = rate_tournament(tournament, ratings)
    assert all(change.after >= 100 for change in outcome.changes)
    week = rate_week(ratings, [tournament, dataclasses.replace(tournament, id="t2")])
    assert all(rating >= 100 for rating in week.new_ratings.values())


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=4, max_value=40),
    st.integers(min_value=100, max_value=3000),
    st.lists(st.integers(min_value=100, max_value=3000), min_size=39, max_size=39),
    st.integers(min_value=1, max_value=16),
    st.sampled_from(["", "sealed", "draft"]),
    st.booleans(),
)
def test_changes_never_increase_as_the_place_gets_worse(size, rs, others, k, tournament_format, sqrt_rule):
    """The same player (Rs) against the same field: a worse place never gives a larger change."""
    field = others[: size - 1]
    deltas = []
    for place in range(1, size + 1):
        ratings_in_order = [*field[: place - 1], rs, *field[place - 1 :]]
        tournament, ratings = four_player_tournament(
            ratings_in_order, k=k, tournament_format=tournament_format, sqrt_rule=sqrt_rule
        )
        deltas.append(rate_tournament(tournament, ratings).changes[place - 1].delta)
    assert all(a >= b for a, b in itertools.pairwise(deltas))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=4, max_value=60),
    st.integers(min_value=100, max_value=3000),
    st.integers(min_value=1, max_value=16),
    st.sampled_from(["", "sealed", "draft"]),
    st.booleans(),
)
def test_changes_in_one_tournament_of_equals_never_increase_with_the_place(size, rating, k, tournament_format, sqrt):
    tournament, ratings = four_player_tournament(
        [rating] * size, k=k, tournament_format=tournament_format, sqrt_rule=sqrt
    )
    deltas = [c.delta for c in rate_tournament(tournament, ratings).changes]
    assert all(a >= b for a, b in itertools.pairwise(deltas))
    assert deltas[0] >= 3 * k


# --- manage.py rate -------------------------------------------------------------------------------------------------


def document(**changes):
    doc = {
        "system": "gorbunov",
        "ratings": {"ann": 190},
        "options": {"sqrt_rule": False},
        "tournaments": [
            {
                "id": "t1",
                "date": "2026-03-07",
                "k": 4,
                "format": "constructed",
                "results": [
                    {"player": "ann", "place": 1},
                    {"player": "bob", "place": 2},
                    {"player": "cid", "place": 3},
                    {"player": "dan", "place": 4},
                ],
            }
        ],
    }
    doc.update(changes)
    return doc


def test_rate_document_output_keys_and_numbers():
    out = rate_document(document())
    assert set(out) == {"ratings", "changes"}
    # Rt = 490/4 = 122.5; ann: 4 - 2.7 = 1.3 -> 3 (rule 1) -> 12; bob: 1.5 + 0.9 = 2.4 -> 9.6 -> 10;
    # cid: -0.1 -> -0.4 -> 0; dan: -2.1 -> -3 (rule 4) -> -12, kept at 100 by the floor.
    assert out["ratings"] == {"ann": 202, "bob": 110, "cid": 100, "dan": 100}
    first = out["changes"][0]
    assert {k: first[k] for k in ("tournament", "player", "before", "delta")} == {
        "tournament": "t1",
        "player": "ann",
        "before": 190,
        "delta": 12,
    }
    assert first["after"] == 202
    assert set(first["explanation"]) == {"en", "ru"}
    json.dumps(out)


def test_rate_document_keeps_players_who_did_not_play_and_tolerates_unknown_keys():
    doc = document(ratings={"ann": 190, "zed": 333}, comment="what if")
    doc["tournaments"][0]["venue"] = "club"
    assert rate_document(doc)["ratings"]["zed"] == 333


def test_rate_document_lists_a_too_small_tournament_as_excluded():
    doc = document()
    doc["tournaments"][0]["results"] = doc["tournaments"][0]["results"][:2]
    out = rate_document(doc)
    assert out["changes"] == []
    assert out["ratings"] == {"ann": 190, "bob": 100}
    assert out["excluded"][0]["tournament"] == "t1"


def test_rate_document_sealed_and_draft():
    doc = document()
    doc["tournaments"][0]["format"] = "draft"
    assert rate_document(doc)["changes"][0]["delta"] == 15  # base 3 (rule 1) · (4 + 1)


def test_rate_document_place_larger_than_players():
    doc = document()
    doc["tournaments"][0]["results"][3]["place"] = 41
    with pytest.raises(EngineError) as error:
        rate_document(doc)
    assert str(error.value) == "tournaments[0].results[3].place: 41 is larger than players (4)"


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda t: t.update(date="2026-02-30"), "tournaments[0].date"),
        (lambda t: t.update(date="07.03.2026"), "tournaments[0].date"),
        (lambda t: t.update(date=20260307), "tournaments[0].date"),
        (lambda t: t["results"][2].update(player="ann"), "tournaments[0].results[2].player"),
        (lambda t: t["results"][2].update(place="3"), "tournaments[0].results[2].place"),
        (lambda t: t["results"][2].update(place=2), "tournaments[0].results[2].place"),
        (lambda t: t.update(k=-1), "tournaments[0].k"),
        (lambda t: t.pop("k"), "tournaments[0].k"),
        (lambda t: t["results"][0].pop("player"), "tournaments[0].results[0].player"),
        (lambda t: t.update(results="ann"), "tournaments[0].results"),
    ],
)
def test_rate_document_bad_input(mutate, field):
    doc = document()
    mutate(doc["tournaments"][0])
    with pytest.raises(EngineError) as error:
        rate_document(doc)
    assert error.value.field == field


def test_rate_document_bad_ratings_and_options():
    with pytest.raises(EngineError, match=r"^ratings\.ann: "):
        rate_document(document(ratings={"ann": "high"}))
    with pytest.raises(EngineError, match=r"^options\.sqrt_rule: "):
        rate_document(document(options={"sqrt_rule": "yes"}))


def test_engine_imports_no_django():
    code = "import sys, ratings.engines.gorbunov; print(sorted({m.split('.')[0] for m in sys.modules} & {'django'}))"
    root = Path(__file__).resolve().parents[3]
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert result.stdout.strip() == "[]"


def test_a_tournament_may_switch_the_sealed_cap_off_or_on_against_its_list():
    """rules/gorbunov.md, example A, 10th place in a sealed tournament: -47, capped at -45 unless the tournament says
    otherwise (staff may override a list's optional rules per tournament)."""
    from ratings.engines.gorbunov import rate_document

    others = {f"p{i}": 125 for i in range(10)} | {"p10": 120}
    field = list(others)
    field.insert(9, "x")

    def delta(**rules):
        doc = {
            "ratings": {"x": 190, **others},
            "options": {"sealed_cap": rules.pop("list_cap", True)},
            "tournaments": [
                {
                    "id": "A",
                    "date": "2019-03-07",
                    "k": 4,
                    "format": "sealed",
                    **rules,
                    "results": [{"player": p, "place": i + 1} for i, p in enumerate(field)],
                }
            ],
        }
        return next(c["delta"] for c in rate_document(doc)["changes"] if c["player"] == "x")

    assert delta() == -45
    assert delta(sealed_cap=False) == -47
    assert delta(list_cap=False) == -47
    assert delta(list_cap=False, sealed_cap=True) == -45
