"""Mahjong engine, a list's settings from the parameters stored with it. No database."""

from __future__ import annotations

import pytest

from ratings.engines.common import EngineError
from ratings.engines.mahjong import (
    list_settings_from_params,
)
from tests.ratings.engines.mahjong.helpers import make, reasons_en

# --- Settings --------------------------------------------------------------------------------------------------------


def test_settings_from_params_changes_thresholds_and_country():
    custom = list_settings_from_params({"min_players": 20, "country": "UA", "full_rules_from": None}, preset="rr")
    assert (custom.min_players, custom.country, custom.full_rules_from) == (20, "UA", None)
    assert reasons_en(make(players=19, country="UA"), custom) == ["fewer than 20 players"]


def test_settings_from_params_rejects_unknown_keys_and_bad_values():
    with pytest.raises(EngineError, match=r"^colour:"):
        list_settings_from_params({"colour": "red"})
    with pytest.raises(EngineError, match=r"^min_players:"):
        list_settings_from_params({"min_players": "many"})
    with pytest.raises(EngineError, match=r"^rank_restricted_from:"):
        list_settings_from_params({"rank_restricted_from": "soon"}, preset="online")
