"""The parameters of the three mahjong lists (`rules/mahjong.md`, "The three lists"): thresholds, dates, country and
the number of tournaments in part B, on top of each list's preset.

Each validator returns the parameters completed with the preset's values, so a stored list shows every setting
that applies to it; a wrong key or value raises ``ValueError`` naming it (shown on the admin's ``params`` field).
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date
from typing import Any

from ratings.engines.common import EngineError
from ratings.engines.mahjong import ListSettings, list_settings_from_params

ENGINE_PRESETS = {"mahjong-rr": "rr", "mahjong-crr": "crr", "mahjong-online": "online"}


def settings_to_params(settings: ListSettings) -> dict[str, Any]:
    """A list's settings as JSON: dates as ISO strings."""
    params = asdict(settings)
    for key, value in params.items():
        if isinstance(value, date):
            params[key] = value.isoformat()
    return params


def _validate(params: dict[str, Any], preset: str) -> dict[str, Any]:
    try:
        settings = list_settings_from_params(params, preset=preset)
    except EngineError as error:
        raise ValueError(str(error)) from None
    if settings.code != preset:
        raise ValueError(f"code: must be {preset!r} for this engine")
    if len(settings.country) != 2 or not settings.country.isupper():
        raise ValueError(f"country: {settings.country!r} is not a two-letter country code")
    if settings.min_tournaments < 1:
        raise ValueError("min_tournaments: must be at least 1")
    return settings_to_params(settings)


def validate_rr(params: dict[str, Any]) -> dict[str, Any]:
    return _validate(params, "rr")


def validate_crr(params: dict[str, Any]) -> dict[str, Any]:
    return _validate(params, "crr")


def validate_online(params: dict[str, Any]) -> dict[str, Any]:
    return _validate(params, "online")


def list_settings(engine: str, params: dict[str, Any]) -> ListSettings:
    """The engine's settings of a stored list (its params were validated when saved)."""
    return list_settings_from_params(params, preset=ENGINE_PRESETS[engine])
