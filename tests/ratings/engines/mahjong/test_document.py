"""Mahjong engine through ``manage.py rate``'s document (`RATE_CLI.md`, "Mahjong"): the lists end to end, the
ranking, and bad input named by its field. No database."""

from __future__ import annotations

import pytest

from ratings.engines.common import EngineError
from ratings.engines.mahjong import (
    rate_document,
)

# --- The lists end to end --------------------------------------------------------------------------------------------


def document() -> dict:
    return {
        "system": "mahjong-rr",
        "as_of": "2025-06-01",
        "country": "RU",
        "players": [{"id": "p4", "country": "FR"}],
        "tournaments": [
            {"id": "t1", "end_date": "2025-03-01", "players": 40, "hanchans": 8, "accredited": True, "open": True,
             "results": [{"player": "p1", "place": 1}, {"player": "p2", "place": 2}, {"player": "p4", "place": 3},
                         {"player": None, "place": 4}]},
            {"id": "t2", "end_date": "2024-05-15", "players": 20, "hanchans": 10, "accredited": True, "open": True,
             "results": [{"player": "p1", "place": 5}]},
            {"id": "t3", "end_date": "2025-01-20", "players": 16, "hanchans": 4, "accredited": True, "open": True,
             "results": [{"player": "p2", "place": 1}, {"player": "p3", "place": 2}, {"player": "p1", "place": 16}]},
            {"id": "t7", "end_date": "2025-04-01", "players": 15, "hanchans": 8, "accredited": True, "open": True,
             "results": [{"player": "p1", "place": 1}]},
            {"id": "t8", "end_date": "2023-01-01", "players": 40, "hanchans": 8, "accredited": True, "open": True,
             "results": [{"player": "p1", "place": 1}]},
        ],
    }  # fmt: skip


def test_rate_document_end_to_end():
    # W: t1 = 1.00 + 1.60 = 2.60 (A 100 %), t2 = 0.50 + 1.90 = 2.40 (12 months: A 85.71 %), t3 = 0.40 + 0.80 = 1.20.
    # p1: t1 1st -> 2 600.00; t2 5th of 20 -> 2.40 * 789.47 * 0.8571 = 1 623.98; t3 16th of 16 -> 0.
    #   part A = 4 223.98 / (2.60 + 2.057040 + 1.20 + 2 * 1) = 4 223.98 / 7.85704 = 537.60
    #   MAXK = 2.60 + 2.05704 + 1.20 + 1 = 6.85704; part B = 4 223.98 / 6.85704 = 616.01; rating 576.81
    # p2: t1 2nd of 40 -> 2.60 * 974.36 = 2 533.33; t3 1st -> 1 200.00
    #   part A = 3 733.33 / (2.60 + 1.20 + 3) = 549.02; part B = 3 733.33 / 6.85704 = 544.45; rating 546.74
    out = rate_document(document())
    assert out["as_of"] == "2025-06-01"
    summary = [{key: row[key] for key in ("rank", "player", "rating", "part_a", "part_b", "tournaments")}
               for row in out["list"]]  # fmt: skip
    assert summary == [
        {"rank": 1, "player": "p1", "rating": 576.81, "part_a": 537.60, "part_b": 616.01, "tournaments": 3},
        {"rank": 2, "player": "p2", "rating": 546.74, "part_a": 549.02, "part_b": 544.45, "tournaments": 2},
    ]
    assert out["excluded"] == [
        {"tournament": "t7", "reason": "fewer than 16 players", "reason_ru": "меньше 16 игроков"},
        {"tournament": "t8", "reason": "older than two years", "reason_ru": "старше двух лет"},
    ]
    details = {row["tournament"]: row for row in out["list"][0]["details"]}
    assert details["t2"] == {
        "tournament": "t2", "place": 5, "players": 20, "hanchans": 10, "w": 2.40, "r": 789.47, "a": 85.71,
        "delta": 1623.98, "part_a": True, "part_b": True,
    }  # fmt: skip
    explanation = out["list"][0]["explanation"]
    assert "4 223.98 / 7.85704 = 537.60" in explanation["en"]
    assert (
        "(2 600.00 + 1 623.98 + 0.00 + 0) / (2.60 + 2.05704 + 1.20 + 1.00) = 4 223.98 / 6.85704 = 616.01"
        in (explanation["en"])
    )
    assert "часть A" in explanation["ru"]


def test_rate_document_crr_and_online_systems():
    doc = document()
    doc["system"] = "mahjong-crr"
    crr = rate_document(doc)
    assert [row["tournament"] for row in crr["excluded"]] == ["t8"]  # 15 players are enough for CRR
    doc["system"] = "mahjong-online"
    online = rate_document(doc)
    assert online["list"] == []
    assert online["excluded"][0]["reason"] == "not an online tournament"


def test_foreigners_are_not_listed_in_rr_but_count_in_n():
    out = rate_document(document())
    assert "p4" not in [row["player"] for row in out["list"]]


# --- rate_document: bad input ----------------------------------------------------------------------------------------


def bad(doc_change) -> str:
    doc = document()
    doc_change(doc)
    with pytest.raises(EngineError) as error:
        rate_document(doc)
    return str(error.value)


def test_bad_place_larger_than_players():
    def change(doc):
        doc["tournaments"][3]["players"] = 40
        doc["tournaments"][3]["results"] = [{"player": f"x{i}", "place": i + 1} for i in range(7)]
        doc["tournaments"][3]["results"].append({"player": "p1", "place": 41})

    assert bad(change) == "tournaments[3].results[7].place: 41 is larger than players (40)"


def test_bad_date():
    def change(doc):
        doc["tournaments"][1]["end_date"] = "2025-13-01"

    assert bad(change) == "tournaments[1].end_date: '2025-13-01' is not a date (YYYY-MM-DD)"


def test_bad_as_of():
    assert bad(lambda doc: doc.update(as_of="yesterday")).startswith("as_of:")


def test_bad_player_twice_in_a_tournament():
    def change(doc):
        doc["tournaments"][0]["results"][2]["player"] = "p1"

    assert bad(change) == "tournaments[0].results[2].player: 'p1' appears twice in this tournament (results[0])"


def cutoff_doc(doc):
    doc["tournaments"][0] = {
        "id": "c", "end_date": "2025-04-01", "players": 28, "accredited": True, "open": True,
        "stages": [{"hanchans": 10}, {"hanchans": 10}],
        "results": [{"player": "p1", "place": 1, "hanchans": 20}, {"player": "p2", "place": 9, "hanchans": 10}],
    }  # fmt: skip


def test_cutoff_document_is_rated_with_per_player_w():
    doc = document()
    cutoff_doc(doc)
    doc["tournaments"][0]["stages"][1]["players"] = 8
    out = rate_document(doc)
    by_player = {row["player"]: {d["tournament"]: d for d in row["details"]} for row in out["list"]}
    assert by_player["p1"]["c"]["w"] == 3.18
    assert by_player["p2"]["c"]["w"] == 2.73
    assert out["maxk"][0] == {"tournament": "c", "w": 3.18, "a": 1.0, "wa": 3.18}


def test_bad_hanchans_more_than_the_stages_hold():
    def change(doc):
        cutoff_doc(doc)
        doc["tournaments"][0]["results"][0]["hanchans"] = 25

    assert bad(change) == "tournaments[0].results[0].hanchans: 25 is more than the stages hold (20)"


def test_bad_stages_without_per_result_hanchans():
    def change(doc):
        cutoff_doc(doc)
        del doc["tournaments"][0]["results"][1]["hanchans"]

    assert bad(change).startswith("tournaments[0].results[1].hanchans: missing")


def test_bad_hanchans_not_the_sum_of_the_stages():
    def change(doc):
        cutoff_doc(doc)
        doc["tournaments"][0]["hanchans"] = 18

    assert bad(change) == "tournaments[0].hanchans: 18 is not the sum of the stages (20)"


def test_bad_system_flag_and_missing_fields():
    assert bad(lambda doc: doc.update(system="mahjong-xx")).startswith("system:")
    assert (
        bad(lambda doc: doc["tournaments"][0].update(open="yes")) == "tournaments[0].open: 'yes' is not true or false"
    )
    assert bad(lambda doc: doc["tournaments"][2].pop("players")) == "tournaments[2].players: missing"
    assert bad(lambda doc: doc["tournaments"][2].pop("hanchans")) == "tournaments[2].hanchans: missing"
    assert bad(lambda doc: doc.pop("tournaments")) == "tournaments: missing"


def test_bad_tournament_id_twice_and_too_many_results():
    assert bad(lambda doc: doc["tournaments"][1].update(id="t1")).startswith("tournaments[1].id: 't1' appears twice")

    def change(doc):
        doc["tournaments"][1]["players"] = 2
        doc["tournaments"][1]["results"] = [{"player": f"x{i}", "place": 1} for i in range(3)]

    assert bad(change) == "tournaments[1].results: 3 results but players is 2"


def test_missing_flags_default_to_false():
    doc = document()
    del doc["tournaments"][0]["open"]
    out = rate_document(doc)
    assert {"tournament": "t1", "reason": "not open", "reason_ru": "не открытый"} in out["excluded"]
