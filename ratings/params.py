"""Each engine's accepted list parameters: a rating list's ``params`` must pass its engine's validator.

A validator takes the raw dict and returns it completed with defaults, or raises ``ValueError`` naming the
parameter at fault; the admin form shows that message on the ``params`` field. Each discipline registers its
validator here by engine name; an engine with no validator accepts only an empty dict (preferans keeps its
constants in code: its explanations are rebuilt from the stored numbers, which a changed X or Y would break).
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
}


def validate_params(engine: str, params: Any) -> dict[str, Any]:
    if not isinstance(params, dict):
        raise ValueError("parameters must be a JSON object")
    path = VALIDATORS.get(engine)
    if path is None:
        if params:
            raise ValueError(f"this engine takes no parameters: {', '.join(sorted(params))}")
        return {}
    module_name, function = path.split(":")
    return getattr(importlib.import_module(module_name), function)(params)
