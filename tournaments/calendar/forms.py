"""The calendar's inputs: its filter (discipline, city) and the registration form."""

from __future__ import annotations

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from federation.i18n import current_language
from federation.models import Player, city_name
from tournaments.models import Discipline, Tournament

#: The longest search a visitor may type on the registration page.
MAX_SEARCH = 100


class CalendarFilter(django_filters.FilterSet):
    discipline = django_filters.ChoiceFilter(
        label=_("Discipline"), choices=Discipline.choices, empty_label=_("All disciplines")
    )
    city = django_filters.ChoiceFilter(label=_("City"), choices=[], empty_label=_("All cities"))

    class Meta:
        model = Tournament
        fields = ["discipline", "city"]

    def __init__(self, *args, cities: list[str] = (), **kwargs):
        super().__init__(*args, **kwargs)
        language = current_language()  # the cities in the reader's alphabet, sorted as shown (issue 28)
        shown = sorted(((city, city_name(city, language)) for city in cities), key=lambda pair: pair[1].lower())
        self.filters["city"].extra["choices"] = shown


def _printable(value: str) -> str:
    if any(ch < " " or ch == "\x7f" for ch in value):
        raise forms.ValidationError(_("Remove the control characters."))
    return value


class RegistrationForm(forms.Form):
    """Either a player of the registry (``player``, chosen from the search) or a newcomer's name, and an e-mail."""

    player = forms.IntegerField(label=_("I am in the registry"), required=False, min_value=1, max_value=2**62)
    name = forms.CharField(label=_("Surname and name (if you are not in the registry)"), max_length=200, required=False)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    email = forms.EmailField(
        label=_("E-mail"),
        max_length=254,
        help_text=_("We send the confirmation link there. Nobody else sees it."),
    )

    def clean_name(self):
        return " ".join(_printable(self.cleaned_data["name"]).split())

    def clean_city(self):
        return " ".join(_printable(self.cleaned_data["city"]).split())

    def clean(self):
        cleaned = super().clean()
        player_id, name = cleaned.get("player"), cleaned.get("name")
        if player_id is not None:
            player = Player.objects.filter(pk=player_id, is_bot=False).first()
            if player is None:
                self.add_error("player", _("There is no such player in the registry."))
            elif name:
                self.add_error("name", _("Either choose yourself in the registry or type a name, not both."))
            cleaned["player_obj"] = player
        elif not name and "name" not in self.errors:
            self.add_error("name", _("Find yourself in the registry, or type your surname and name."))
        return cleaned
