"""The parameters of a Gorbunov rating list (`rules/gorbunov.md`, "Optional rules", "Decision (size)", "Parallel
lists"): which tournament formats the list takes and the engine's switches. ``validate`` is what
``RatingList.clean`` calls through ``ratings.params``; ``engine_settings`` turns the stored dict into the engine's
``GorbunovSettings``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ratings.engines.gorbunov import DEFAULT_SETTINGS, GorbunovSettings
from tournaments.models import CardFormat

ALL_FORMATS = [value for value, _label in CardFormat.choices]

DEFAULTS: dict[str, Any] = {
    "formats": ALL_FORMATS,
    "sqrt_rule": DEFAULT_SETTINGS.sqrt_rule,
    "sealed_cap": DEFAULT_SETTINGS.sealed_cap,
    "min_participants": DEFAULT_SETTINGS.min_participants,
    "draft_bonus_since": DEFAULT_SETTINGS.draft_bonus_since.isoformat(),
}


def validate(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters completed with defaults; ``ValueError`` naming the key for anything the engine refuses."""
    if not isinstance(params, dict):
        raise ValueError("parameters must be a JSON object")
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown parameter: {', '.join(unknown)} (known: {', '.join(DEFAULTS)})")
    result = {**DEFAULTS, **params}
    formats = result["formats"]
    if not isinstance(formats, list) or not formats or not all(isinstance(f, str) for f in formats):
        raise ValueError(f"formats: {formats!r} is not a non-empty list of formats ({', '.join(ALL_FORMATS)})")
    bad = [f for f in formats if f not in ALL_FORMATS]
    if bad:
        raise ValueError(f"formats: unknown format {', '.join(bad)} (known: {', '.join(ALL_FORMATS)})")
    if len(set(formats)) != len(formats):
        raise ValueError("formats: a format is named twice")
    result["formats"] = [f for f in ALL_FORMATS if f in formats]
    for key in ("sqrt_rule", "sealed_cap"):
        if not isinstance(result[key], bool):
            raise ValueError(f"{key}: {result[key]!r} is neither true nor false")
    minimum = result["min_participants"]
    if type(minimum) is not int or minimum < 2:
        raise ValueError(f"min_participants: {minimum!r} is not a whole number of at least 2")
    since = result["draft_bonus_since"]
    try:
        if not isinstance(since, str) or len(since) != 10:
            raise ValueError
        dt.date.fromisoformat(since)
    except ValueError:
        raise ValueError(f"draft_bonus_since: {since!r} is not a date (YYYY-MM-DD)") from None
    return result


def engine_settings(params: dict[str, Any]) -> GorbunovSettings:
    checked = validate(params)
    return GorbunovSettings(
        min_participants=checked["min_participants"],
        draft_bonus_since=dt.date.fromisoformat(checked["draft_bonus_since"]),
        sqrt_rule=checked["sqrt_rule"],
        sealed_cap=checked["sealed_cap"],
    )
