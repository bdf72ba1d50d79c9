"""The club's forms: a newcomer's first rating and a club game. They only read and check; the services decide."""

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player

from .models import MAX_RECORDED_STONES, DirsWinner, Komi


class DirsInitialForm(forms.Form):
    player = forms.ModelChoiceField(
        label=_("Player"), queryset=Player.objects.filter(is_bot=False, dirs__isnull=True).order_by("last_name")
    )
    rank = forms.CharField(label=_("Declared rank"), max_length=10, help_text=_("For example 5k or 2d."))
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.order_by("name"), required=False)


class RatedPlayerField(forms.ModelChoiceField):
    """A player with a DIRS rating, labelled so namesakes differ: name, then city, club and the member's number."""

    def __init__(self, **kwargs):
        players = Player.objects.filter(dirs__isnull=False).select_related("club").order_by("last_name", "first_name")
        super().__init__(queryset=players, **kwargs)

    def label_from_instance(self, obj: Player) -> str:
        details = [part for part in (obj.city, obj.club.name if obj.club_id else "") if part]
        return f"{obj.full_name} ({', '.join([*details, f'#{obj.pk}'])})"


class WinnerField(forms.ChoiceField):
    """White or black; a draw is refused by name, since DIRS rates no draws (`rules/go.md`, part 2)."""

    def validate(self, value):
        if value in ("draw", "jigo"):
            raise forms.ValidationError(
                _("DIRS knows no draws: a club game is won by white or black (its komi has a half point).")
            )
        super().validate(value)


class DirsGameForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.order_by("name"), required=False)
    white = RatedPlayerField(label=_("White"))
    black = RatedPlayerField(label=_("Black"))
    handicap = forms.IntegerField(label=_("Stones"), min_value=0, max_value=MAX_RECORDED_STONES, initial=0)
    komi = forms.ChoiceField(label=_("Komi"), choices=Komi.choices, initial=Komi.NORMAL)
    winner = WinnerField(
        label=_("Winner"),
        choices=DirsWinner.choices,
        error_messages={"invalid_choice": _("Choose the winner: white or black.")},
    )

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
