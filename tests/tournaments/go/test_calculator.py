"""The handicap calculator: the engines' rules for two ratings on the tournament scale or the DIRS scale."""

import pytest

from .helpers import EN

pytestmark = pytest.mark.django_db


def test_calculator_page_and_json(client):
    assert client.get(f"{EN}/calculator/").status_code == 200
    data = client.get(f"{EN}/calculator.json", {"scale": "tournament", "a": 1600, "b": 1300, "half_stone": "on"}).json()
    # 32 vs 26: d = 6 -> 3 stones, reverse komi; B takes black.
    assert (data["level_a"], data["level_b"], data["stones"], data["komi"], data["black"]) == (
        32,
        26,
        3,
        "reverse",
        "b",
    )
    data = client.get(f"{EN}/calculator.json", {"scale": "tournament", "a": 1600, "b": 1300}).json()
    assert (data["stones"], data["komi"], data["text"]) == (3, "none", "3 stones, no komi")
    data = client.get(f"{EN}/calculator.json", {"scale": "dirs", "a": 200, "b": 100}).json()
    assert data["pairable"] is False
    # DIRS proposes "2 stones, reverse komi" for 181 and 160 (d = 21).
    data = client.get(f"{EN}/calculator.json", {"scale": "dirs", "a": 181, "b": 160}).json()
    assert (data["stones"], data["komi"], data["text"]) == (2, "reverse", "2 stones, reverse komi")
    response = client.get(f"{EN}/calculator.json", {"scale": "dirs", "a": "x", "b": 1})
    assert response.status_code == 400
    assert "a" in response.json()["errors"]
    response = client.get(f"{EN}/calculator.json", {"scale": "dirs", "a": 100, "b": 400})
    assert response.status_code == 400
    assert response.json() == {"errors": {"b": ["The DIRS scale ends at 300."]}}
