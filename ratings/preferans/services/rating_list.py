"""The preferans rating list: its row in the registry of lists, and the engine's settings read from it.

Every rating system has its ``RatingList``; preferans has one, whose parameters are the engine's settings
(``ratings/preferans/params.py``). The list has no snapshots: the rating moves deal by deal, and the per-deal rows
(``DealResult``) are its history.
"""

from __future__ import annotations

import json

from ratings.engines.preferans import PreferansSettings
from ratings.models import Engine, RatingList
from ratings.preferans.params import engine_settings, validate

LIST_SLUG = "preferans"


def preferans_setup_defaults() -> RatingList:
    """Idempotent: the preferans list with the rules' parameters (called after every ``migrate``).

    A list already there is left as staff set it (its names, its order, its parameters while no deal is rated).
    """
    existing = RatingList.objects.filter(engine=Engine.PREFERANS).order_by("pk").first()
    if existing is not None:
        return existing
    rating_list, _created = RatingList.objects.get_or_create(
        slug=LIST_SLUG,
        defaults={
            "name": "Рейтинг преферанса",
            "name_en": "Preferans rating",
            "engine": Engine.PREFERANS,
            "params": validate({}),
            "ordering": 40,
        },
    )
    return rating_list


def rating_settings() -> PreferansSettings:
    """The settings every deal is rated and explained with: the preferans list's parameters.

    They cannot change once a deal is rated (``params.check_change``): explanations are rebuilt from the stored
    numbers with them. Without a list (before the first ``migrate`` created it) they are the rules' defaults.
    """
    params = RatingList.objects.filter(engine=Engine.PREFERANS).order_by("pk").values_list("params", flat=True).first()
    return engine_settings(params)


#: Settings by the list's parameters as JSON text, for the statement that reads them with a deal's locks.
_BY_TEXT: dict[str | None, PreferansSettings] = {}


def settings_from_text(text: str | None) -> PreferansSettings:
    """The settings of parameters read as JSON text (``None``: no list), built once per text and process."""
    settings = _BY_TEXT.get(text)
    if settings is None:
        if len(_BY_TEXT) > 16:
            _BY_TEXT.clear()
        settings = _BY_TEXT[text] = engine_settings(json.loads(text) if text is not None else None)
    return settings
