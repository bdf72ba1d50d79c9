"""The engine behind ``manage.py rate`` (``RATE_CLI.md``): one JSON document in, one out, no database.

Each system's module owns its ``rate_document(doc) -> dict``; this module only picks the module by ``system``
and turns every kind of bad input into one ``EngineError`` naming the field.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from ratings.engines.common import EngineError

SYSTEMS = {
    "gorbunov": "ratings.engines.gorbunov",
    "mahjong-rr": "ratings.engines.mahjong.document",
    "mahjong-crr": "ratings.engines.mahjong.document",
    "mahjong-online": "ratings.engines.mahjong.document",
    "preferans": "ratings.engines.preferans",
    "dirs": "ratings.engines.dirs",
    "selfhandicap": "tournaments.pairing.selfhandicap",
}


def parse_document(text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise EngineError("input", f"not valid JSON ({error.msg} at {where})") from None
    if not isinstance(doc, dict):
        raise EngineError("input", "must be a JSON object")
    return doc


def rate(doc: dict[str, Any]) -> dict[str, Any]:
    system = doc.get("system")
    if not isinstance(system, str) or system not in SYSTEMS:
        known = ", ".join(sorted(SYSTEMS))
        raise EngineError("system", f"{json.dumps(system, ensure_ascii=False)} is not a known system ({known})")
    module = importlib.import_module(SYSTEMS[system])
    return module.rate_document(doc)
