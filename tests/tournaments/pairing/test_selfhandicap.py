"""``manage.py rate`` for a self-handicap tournament (`RATE_CLI.md`): the contract's example, options, draws,
absences, and bad input named by its field."""

from __future__ import annotations

import pytest

from ratings.engines.common import EngineError
from tests.tournaments.pairing.examples import five_round_fus
from tournaments.pairing import (
    RULE_FIELD_UNPAIRABLE,
    rate_document,
)


def test_rate_document_contract_example():
    doc = {
        "system": "selfhandicap",
        "options": {"half_stone": True, "acceleration": True},
        "rounds": 5,
        "players": [{"id": "ann", "rating": 1300}, {"id": "bob", "rating": 1700}, {"id": "cid", "rating": 1000}],
        "games": [[{"white": "bob", "black": "ann", "winner": "ann"}, {"bye": "cid"}]],
        "pair_next": True,
        "seed": 5,
    }
    out = rate_document(doc)
    assert [(s["place"], s["player"], s["level"], s["tiebreak"]) for s in out["standings"]] == [
        (1, "bob", 34, 1),  # (27 - 34) - (26 - 34) = +1
        (2, "ann", 27, -1),
        (3, "cid", 21, 0),
    ]
    # ann and bob have met; cid had the bye: bob gives cid 34 - 21 = 13 levels = 7 stones, ann sits out.
    assert out["next_round"] == [
        {
            "board": 1,
            "white": "bob",
            "black": "cid",
            "handicap": 7,
            "komi": "none",
            "komi_points": 0.5,
            "white_level": 34,
            "black_level": 21,
            "colour_reason": "lower level",
        },
        {"bye": "ann"},
    ]
    assert (out["round"], out["seed"], out["issues"]) == (2, 5, [])
    assert out["standings"][1]["explanation"]["en"].startswith("level 27 = start 26 + wins 1")


def test_rate_document_without_pair_next_and_with_options():
    _, entrants, games = five_round_fus()
    doc = {
        "options": {
            "half_stone": True,
            "acceleration": True,
            "draws": False,
            "tiebreak": True,
            "komi": {"normal": 7.5},
        },
        "rounds": 5,
        "players": [{"id": e.id, "rating": e.rating} for e in entrants],
        "games": [[{"white": g.white, "black": g.black, "winner": g.winner} for g in r] for r in games],
    }
    out = rate_document(doc)
    assert "next_round" not in out
    assert [(s["player"], s["level"], s["tiebreak"]) for s in out["standings"]] == [
        ("ann", 45, 0),
        ("bob", 43, 8),
        ("cid", 43, -3),
        ("fay", 43, -23),
        ("dan", 40, 5),
        ("eve", 37, 13),
    ]


def test_rate_document_draws_and_absences():
    doc = {
        "options": {"draws": True},
        "rounds": 3,
        "players": [
            {"id": "a", "rating": 2000},
            {"id": "b", "rating": 2000},
            {"id": "c", "rating": 1000, "absent": [2]},
        ],
        "games": [[{"white": "a", "black": "b", "winner": None}, {"bye": "c"}]],
        "pair_next": True,
    }
    out = rate_document(doc)
    assert [(s["player"], s["level"]) for s in out["standings"]] == [("a", 20), ("b", 20), ("c", 11)]
    # a and b have met; c is absent in round 2: nobody can play.
    assert out["next_round"] == [{"bye": "a"}, {"bye": "b"}]
    assert [i["rule"] for i in out["issues"]] == [RULE_FIELD_UNPAIRABLE]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "document: is not an object"),
        ({"system": "dirs", "rounds": 3}, "system: 'dirs' is not \"selfhandicap\""),
        ({"players": []}, "rounds: missing (the number of rounds of the tournament)"),
        ({"rounds": 0}, "rounds: 0 is not a whole number of rounds of at least 1"),
        ({"rounds": 3, "colour": 1}, "colour: unknown key (expected one of"),
        ({"rounds": 3, "options": {"halfstone": True}}, "options.halfstone: unknown key"),
        ({"rounds": 3, "options": {"half_stone": 1}}, "options.half_stone: 1 is not true or false"),
        ({"rounds": 3, "options": {"komi": {"normal": "7"}}}, "options.komi.normal: '7' is not a number"),
        ({"rounds": 3, "players": [{"id": "a"}]}, "players[0].rating: missing"),
        ({"rounds": 3, "players": [{"id": "a", "rating": True}]}, "players[0].rating: True is not a number"),
        ({"rounds": 3, "players": [{"id": "", "rating": 1}]}, "players[0].id: '' is not a non-empty string"),
        (
            {"rounds": 3, "players": [{"id": "a", "rating": 1}, {"id": "a", "rating": 2}]},
            'players[1].id: "a" is registered twice (players[0])',
        ),
        ({"rounds": 3, "players": [{"id": "a", "rating": 1, "absent": [4]}]}, "players[0].absent: 4 is not a round"),
        ({"rounds": 3, "games": {}}, "games: is not a list of rounds"),
        ({"rounds": 3, "games": [[{"white": "a", "black": "b"}]]}, "games[0][0].winner: missing (a player id"),
        (
            {
                "rounds": 3,
                "players": [{"id": "a", "rating": 1}, {"id": "b", "rating": 1}, {"id": "carl", "rating": 1}],
                "games": [[], [{"bye": "carl"}, {"white": "a", "black": "b", "winner": "carl"}]],
            },
            'games[1][1].winner: "carl" is neither white nor black',
        ),
        (
            {
                "rounds": 1,
                "players": [{"id": "a", "rating": 1}, {"id": "b", "rating": 1}],
                "games": [[{"white": "a", "black": "b", "winner": "a"}]],
                "pair_next": True,
            },
            "pair_next: all 1 rounds have been played",
        ),
        ({"rounds": 3, "pair_next": "yes"}, "pair_next: 'yes' is not true or false"),
        ({"rounds": 3, "seed": 1.5}, "seed: 1.5 is not a whole number"),
        (
            {
                "rounds": 3,
                "players": [{"id": "a", "rating": 1}, {"id": "b", "rating": 1}],
                "games": [[{"white": "a", "black": "b", "winner": "a", "handicap": 12}]],
            },
            "games[0][0].handicap: 12 is not a number of stones 0..9",
        ),
    ],
)
def test_rate_document_bad_input(doc, message):
    with pytest.raises(EngineError) as info:
        rate_document(doc)
    assert str(info.value).startswith(message)
