"""The router behind ``manage.py rate``: a document's ``system`` of the wrong type is a clear error, not a crash."""

from __future__ import annotations

import pytest

from ratings.engines.common import EngineError
from ratings.rate import rate


@pytest.mark.parametrize("system", [{}, [], None, 3])
def test_a_system_that_is_not_a_name_is_refused_by_its_field(system):
    with pytest.raises(EngineError) as error:
        rate({"system": system})
    assert error.value.field == "system"
    assert "is not a known system" in error.value.message


def test_a_selfhandicap_rating_of_infinity_is_refused_by_its_field():
    doc = {"system": "selfhandicap", "rounds": 3, "players": [{"id": "a", "rating": float("inf")}]}
    with pytest.raises(EngineError) as error:
        rate(doc)
    assert str(error.value) == "players[0].rating: inf is not a number"
