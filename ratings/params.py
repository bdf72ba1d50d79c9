"""Each engine's accepted list parameters: a rating list's ``params`` must pass its engine's validator.

A validator takes the raw dict and returns it completed with defaults, or raises ``ValueError`` naming the
parameter at fault; the admin form shows that message on the ``params`` field. Each discipline registers its
validator here by engine name; an engine with no validator accepts only an empty dict. An engine whose history
cannot take a change of its list (preferans: explanations rebuilt from stored numbers) also registers a check of
the change, which sees the list as edited and the new parameters.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

Validator = Callable[[dict[str, Any]], dict[str, Any]]

#: engine -> "module:function" of its validator, imported on first use.
VALIDATORS: dict[str, str] = {
    "gorbunov": "ratings.gorbunov.params:validate",
    "mahjong-rr": "ratings.mahjong.params:validate_rr",
    "mahjong-crr": "ratings.mahjong.params:validate_crr",
    "mahjong-online": "ratings.mahjong.params:validate_online",
    "preferans": "ratings.preferans.params:validate",
}

#: engine -> "module:function(rating_list, params)" refusing, with ``ValueError``, a change its history cannot take.
CHANGE_CHECKS: dict[str, str] = {
    "preferans": "ratings.preferans.params:check_change",
}


def _load(path: str) -> Callable:
    module_name, function = path.split(":")
    return getattr(importlib.import_module(module_name), function)


def validate_params(engine: str, params: Any) -> dict[str, Any]:
    if not isinstance(params, dict):
        raise ValueError("parameters must be a JSON object")
    path = VALIDATORS.get(engine)
    if path is None:
        if params:
            raise ValueError(f"this engine takes no parameters: {', '.join(sorted(params))}")
        return {}
    return _load(path)(params)


def with_defaults(params: Any, defaults: dict[str, Any]) -> dict[str, Any]:
    """``params`` completed with ``defaults``; ``ValueError`` for what is not an object or names an unknown key."""
    if not isinstance(params, dict):
        raise ValueError("parameters must be a JSON object")
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ValueError(f"unknown parameter: {', '.join(unknown)} (known: {', '.join(defaults)})")
    return {**defaults, **params}


def check_change(rating_list, params: dict[str, Any]) -> None:
    """Run the change checks of the list's engine and of the engine it had (a list moved off an engine included)."""
    engines = [rating_list.engine]
    if rating_list.pk is not None:
        stored = type(rating_list).objects.filter(pk=rating_list.pk).values_list("engine", flat=True).first()
        if stored is not None and stored != rating_list.engine:
            engines.append(stored)
    for engine in engines:
        path = CHANGE_CHECKS.get(engine)
        if path is not None:
            _load(path)(rating_list, params)
