"""A rating list's parameters as a form of labelled fields rather than a JSON box (the admin's change page).

The fields are built from what the list's engine accepts: ``ratings.params.validate_params(engine, {})`` gives every
parameter with its default, and the default's type gives the field (a switch, a whole number, a number, a date, a
text, or a choice of several for a list such as a Gorbunov list's formats). What the person enters goes back through
the same validator on save (``RatingList.clean``), so the form can never accept what the engine refuses. A list being
added keeps the JSON box until its engine is chosen.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from ratings.params import validate_params

PREFIX = "param_"

#: Every engine's parameters, named for staff (the keys stay the stored ones).
LABELS = {
    "formats": _("formats the list takes"),
    "sqrt_rule": _("square-root rule"),
    "sealed_cap": _("sealed cap (a player loses at most half of what they hold above 100)"),
    "min_participants": _("minimum participants"),
    "draft_bonus_since": _("draft tournaments add 1 to K since"),
    "code": _("code"),
    "country": _("country"),
    "online": _("online list"),
    "min_players": _("minimum players"),
    "min_hanchans": _("minimum hanchans"),
    "full_rules_from": _("full rules from"),
    "requires_accreditation": _("only accredited tournaments"),
    "requires_open": _("only open tournaments"),
    "ema_abroad": _("EMA tournaments abroad count"),
    "rank_restricted_from": _("rank-restricted tournaments count from"),
    "part_b_count": _("tournaments in part B"),
    "lists_everyone": _("list every player (not only those with enough tournaments)"),
    "min_tournaments": _("minimum tournaments to be listed"),
    "start_rating": _("start rating"),
    "pro_threshold": _("Pro threshold"),
    "x": _("X"),
    "y": _("Y"),
    "base_kd": _("base Kd"),
    "min_kd": _("minimum Kd"),
    "max_kd": _("maximum Kd"),
    "expected_cap": _("cap of Vf"),
    "smoothing_threshold": _("smoothing threshold"),
}

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _field(key: str, default: Any, initial: Any) -> forms.Field:
    label = capfirst(LABELS.get(key, key))
    if isinstance(default, bool):
        return forms.BooleanField(label=label, required=False, initial=initial)
    if isinstance(default, int):
        return forms.IntegerField(label=label, initial=initial)
    if isinstance(default, float):
        return forms.FloatField(label=label, initial=initial)
    if isinstance(default, list):
        from tournaments.models import CardFormat

        names = dict(CardFormat.choices)
        choices = [(value, names.get(value, value)) for value in default]
        return forms.MultipleChoiceField(
            label=label, choices=choices, initial=initial, widget=forms.CheckboxSelectMultiple
        )
    if default is None or (isinstance(default, str) and DATE.match(default)) or key.endswith(("_from", "_since")):
        return forms.DateField(
            label=label,
            required=default is not None,
            initial=initial,
            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        )
    return forms.CharField(label=label, initial=initial, required=False)


def params_fields(engine: str, params: dict[str, Any]) -> dict[str, forms.Field]:
    """The form fields of an engine's parameters, holding ``params`` (an engine without parameters: none)."""
    try:
        defaults = validate_params(engine, {})
    except ValueError:
        return {}
    return {f"{PREFIX}{key}": _field(key, default, params.get(key, default)) for key, default in defaults.items()}


def params_from(cleaned: dict[str, Any]) -> dict[str, Any]:
    """The stored parameters from the fields' cleaned values (dates as ISO text, as the validators take them)."""
    params = {}
    for name, value in cleaned.items():
        if not name.startswith(PREFIX):
            continue
        if isinstance(value, dt.date):
            value = value.isoformat()
        params[name.removeprefix(PREFIX)] = value
    return params


class RatingListParamsForm(forms.ModelForm):
    """The change form of a rating list whose parameters are fields (``params_fields``): they are checked by the
    engine's validator here, and only parameters it accepts reach the list (the JSON itself is not on the form)."""

    def clean(self):
        from ratings.params import check_change

        cleaned = super().clean()
        engine = cleaned.get("engine", self.instance.engine)
        try:
            params = validate_params(engine, params_from(cleaned))
            check_change(self.instance, params)
        except ValueError as error:
            key, _sep, detail = str(error).partition(": ")
            if key in LABELS and detail:
                self.add_error(f"{PREFIX}{key}", _("The engine refuses this value (%(detail)s).") % {"detail": detail})
            else:
                self.add_error(None, _("Parameters: %(error)s") % {"error": error})
        else:
            self.instance.params = params
        return cleaned
