"""The club's forms: a newcomer's first rating and a club game. They only read and check; the services decide."""

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player

from .models import DirsWinner, Komi


class DirsInitialForm(forms.Form):
    player = forms.ModelChoiceField(
        label=_("Player"), queryset=Player.objects.filter(is_bot=False, dirs__isnull=True).order_by("last_name")
    )
    rank = forms.CharField(label=_("Declared rank"), max_length=10, help_text=_("For example 5k or 2d."))
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.order_by("name"), required=False)


class DirsGameForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.order_by("name"), required=False)
    white = forms.ModelChoiceField(
        label=_("White"), queryset=Player.objects.filter(dirs__isnull=False).order_by("last_name", "first_name")
    )
    black = forms.ModelChoiceField(
        label=_("Black"), queryset=Player.objects.filter(dirs__isnull=False).order_by("last_name", "first_name")
    )
    handicap = forms.IntegerField(label=_("Stones"), min_value=0, max_value=9, initial=0)
    komi = forms.ChoiceField(label=_("Komi"), choices=Komi.choices, initial=Komi.NORMAL)
    winner = forms.ChoiceField(label=_("Winner"), choices=DirsWinner.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()

    def clean_date(self):
        value = self.cleaned_data["date"]
        if value > timezone.localdate() + datetime.timedelta(days=1):
            raise forms.ValidationError(_("The date is in the future."))
        return value


class DirsHandicapForm(forms.Form):
    """Two ratings on the DIRS scale (the game form asks for the handicap they prescribe)."""

    a = forms.IntegerField(min_value=0, max_value=3000)
    b = forms.IntegerField(min_value=0, max_value=3000)
