"""The preferans rating list: its row in the registry of lists, and the engine's settings read from it.

Every rating system has its ``RatingList``; preferans has one, whose parameters are the engine's settings
(``ratings/preferans/params.py``). The list has no snapshots: the rating moves deal by deal, and the per-deal rows
(``DealResult``) are its history.
"""

from __future__ import annotations

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
