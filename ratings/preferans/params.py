"""The parameters of the preferans rating list: the engine's settings (`rules/preferans.md`, "Formula").

``validate`` is what ``RatingList.clean`` calls through ``ratings.params``: X, Y, baseKd, minKd, maxKd, the start
rating, the Pro threshold, the cap of Vf and the smoothing threshold, completed with the rules' defaults and checked
by the engine's own ``PreferansSettings``. ``check_change`` refuses what the stored history cannot take.

Once a deal is rated the parameters are fixed. The site keeps no explanation text: a deal's explanation is rebuilt
from its stored numbers with the list's parameters (``selectors.deal_explanations``), so new parameters would
explain old deals with a formula they were never rated by, and a rating would no longer follow from the deals
shown. The list is one for the site, as the ratings it describes (``PreferansRating``, one row per player).
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from django.utils.translation import gettext as _

from ratings.engines.common import EngineError
from ratings.engines.preferans import DEFAULT_SETTINGS, PreferansSettings
from ratings.params import with_defaults

DEFAULTS: dict[str, float] = asdict(DEFAULT_SETTINGS)


def validate(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters completed with the defaults, as floats; ``ValueError`` naming the key the engine refuses."""
    result = with_defaults(params, DEFAULTS)
    for key, value in result.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"{key}: {value!r} is not a number")
        result[key] = float(value)
    try:
        PreferansSettings(**result)
    except EngineError as error:
        raise ValueError(f"{error.field.removeprefix('settings.')}: {error.message}") from None
    return result


def engine_settings(params: dict[str, Any] | None) -> PreferansSettings:
    """The engine's settings of the stored list (the rules' defaults when there is no list)."""
    return PreferansSettings(**validate(params or {}))


def check_change(rating_list, params: dict[str, Any]) -> None:
    """Refuse a second preferans list, and any change of the list's parameters or engine once a deal is rated.

    ``params`` are the new parameters, validated; ``rating_list`` the list as edited (not yet saved).
    """
    from ratings.models import Engine, RatingList
    from ratings.preferans.models import DealResult

    others = RatingList.objects.filter(engine=Engine.PREFERANS).exclude(pk=rating_list.pk)
    if rating_list.engine == Engine.PREFERANS and others.exists():
        raise ValueError(_("The site has one preferans list; change the one there is."))
    stored = RatingList.objects.filter(pk=rating_list.pk).values_list("engine", "params").first()
    if stored is None or stored[0] != Engine.PREFERANS:
        return
    unchanged = rating_list.engine == Engine.PREFERANS and validate(stored[1]) == params
    if not unchanged and DealResult.objects.exists():
        raise ValueError(
            _(
                "Deals are already rated, and their explanations are rebuilt from the stored numbers with these "
                "parameters: the parameters and the engine of the preferans list can no longer change."
            )
        )
