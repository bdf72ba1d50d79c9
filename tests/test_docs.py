"""The worked examples of docs/ are what the engines compute: each JSON input there runs through ``manage.py rate``'s
engine, and the numbers the pages quote are checked against its answer."""

import json
import re
from pathlib import Path

import pytest

from ratings.rate import rate

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted(DOCS.glob("*.md"))


def examples(page: str) -> list[dict]:
    """The page's JSON input documents (the blocks that name a ``system``), in order."""
    blocks = re.findall(r"```json\n(.*?)```", (DOCS / page).read_text(), flags=re.DOTALL)
    return [doc for doc in map(json.loads, blocks) if "system" in doc]


def test_there_is_a_page_per_rating_system_and_for_the_rate_command():
    assert {p.name for p in PAGES} >= {"gorbunov.md", "mahjong.md", "go.md", "preferans.md", "rate-cli.md"}


@pytest.mark.parametrize("page", [p.name for p in PAGES])
def test_every_example_input_rates(page):
    for doc in examples(page):
        assert rate(doc)


def test_gorbunov_page():
    out = rate(examples("gorbunov.md")[0])
    change = next(c for c in out["changes"] if c["player"] == "ann")
    assert (change["before"], change["delta"], out["ratings"]["ann"]) == (190, 37, 227)


def test_mahjong_page():
    out = rate(examples("mahjong.md")[0])
    anna, boris = out["list"]
    assert (anna["player"], anna["rating"], anna["part_a"], anna["part_b"]) == ("anna", 761.88, 726.86, 796.89)
    assert (boris["player"], boris["rating"]) == ("boris", 725.7)
    w = {
        (d["tournament"], e["player"]): (d["w"], d["r"], d["a"], d["delta"]) for e in out["list"] for d in e["details"]
    }
    assert w["championship", "anna"] == (3.18, 925.93, 100.0, 2944.44)
    assert w["championship", "boris"][0] == 2.73
    assert w["old-open", "anna"] == (4.2, 757.58, 85.71, 2727.14)
    assert out["excluded"][0]["tournament"] == "club-night"
    assert out["excluded"][0]["reason"] == "fewer than 16 players"


def test_go_page():
    one, streak, fus = (rate(doc) for doc in examples("go.md"))
    assert one["ratings"] == {"ann": 152, "bob": 135}
    assert [g["black_after"] for g in streak["games"]] == [80, 86, 95, 105]
    levels = {s["player"]: s["level"] for s in fus["standings"]}
    assert (levels["anna"], levels["boris"]) == (34, 34)
    board = fus["next_round"][0]
    assert (board["white"], board["black"], board["handicap"], board["komi"]) == ("anna", "boris", 0, "normal")


def test_preferans_page():
    out = rate(examples("preferans.md")[0])
    assert {k: round(v, 4) for k, v in out["ratings"].items()} == {"a": 1001.8597, "b": 1800.8546, "c": 1799.0491}
    assert out["leagues"] == {"a": "amateur", "b": "pro", "c": "pro"}
