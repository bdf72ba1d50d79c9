"""The director's forms and the calculator's. They only read and check the input; the services decide and write."""

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player
from tournaments.models import GoSystem

from .models import BoardResult, EgdClass


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    start_date = forms.DateField(label=_("Start date"), widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=_("End date"), widget=forms.DateInput(attrs={"type": "date"}))
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    country = forms.CharField(label=_("Country"), max_length=2, initial="RU")
    system = forms.ChoiceField(label=_("System"), choices=GoSystem.choices, initial=GoSystem.FUS)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=5)
    half_stone = forms.BooleanField(label=_("Half-stone step"), required=False, initial=True)
    acceleration = forms.BooleanField(label=_("Acceleration"), required=False, initial=True)
    draws_allowed = forms.BooleanField(label=_("Draws allowed"), required=False)
    tiebreak = forms.BooleanField(label=_("Tie-break"), required=False, initial=True)
    komi_normal = forms.DecimalField(label=_("Normal komi"), max_digits=4, decimal_places=1, initial=6.5, min_value=0)
    komi_none = forms.DecimalField(
        label=_("Komi of a 'no komi' game"), max_digits=4, decimal_places=1, initial=0.5, min_value=0
    )
    komi_reverse = forms.DecimalField(label=_("Reverse komi"), max_digits=4, decimal_places=1, initial=6.5, min_value=0)
    rate_in_club = forms.BooleanField(label=_("DIRS: rate games in the club rating"), required=False, initial=True)
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.order_by("name"), required=False)
    time_minutes = forms.IntegerField(label=_("Main time, minutes"), min_value=1, max_value=600, initial=60)

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        return data


class RegistrationForm(forms.Form):
    """A member chosen from the name search (their id) or a typed name; the member list is never rendered whole."""

    player = forms.ModelChoiceField(
        label=_("Member"),
        queryset=Player.objects.filter(is_bot=False),
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("Choose a member from the search results.")},
    )
    surname = forms.CharField(label=_("or a surname (not a member)"), max_length=100, required=False)
    given_name = forms.CharField(label=_("Given name"), max_length=100, required=False)
    rating = forms.IntegerField(label=_("Rating"), required=False, help_text=_("Empty: the member's DIRS rating."))
    country = forms.CharField(label=_("Country"), max_length=2, required=False)
    club_name = forms.CharField(label=_("Club"), max_length=100, required=False)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        typed = (data.get("surname") or "").strip() or (data.get("given_name") or "").strip()
        if not data.get("player") and not (data.get("surname") or "").strip():
            raise forms.ValidationError(_("Choose a member or type a name."))
        if data.get("player") and typed:
            raise forms.ValidationError(_("Choose a member or type a name, not both."))
        return data


class PlayerSearchForm(forms.Form):
    q = forms.CharField(max_length=100, required=False)


class AbsenceForm(forms.Form):
    registration = forms.IntegerField(widget=forms.HiddenInput)
    round_number = forms.IntegerField(label=_("Round"), min_value=1)
    absent = forms.BooleanField(required=False)


class RoundEditForm(forms.Form):
    ACTIONS = ("unpair", "pair", "swap", "bye", "unbye", "repair", "publish", "unpublish", "delete")
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    board = forms.IntegerField(required=False, min_value=1)
    first = forms.IntegerField(label=_("Player"), required=False)
    second = forms.IntegerField(label=_("Second player"), required=False)


class ResultForm(forms.Form):
    """One board's result; nothing is chosen until the director chooses (an empty choice is refused by name)."""

    board = forms.IntegerField(label=_("Board"), min_value=1)
    result = forms.ChoiceField(
        label=_("Result"),
        choices=[c for c in BoardResult.choices if c[0]],
        error_messages={"required": _("Choose a result."), "invalid_choice": _("Choose a result.")},
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)


class EgdClassForm(forms.Form):
    egd_class = forms.ChoiceField(label=_("EGD class"), choices=EgdClass.choices)


class CorrectionForm(forms.Form):
    """A new result for a board that has one; the empty choice clears it."""

    board = forms.IntegerField(label=_("Board"), min_value=1)
    result = forms.ChoiceField(
        label=_("Result"),
        choices=[("", _("clear the result")), *[c for c in BoardResult.choices if c[0]]],
        required=False,
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)


class CalculatorForm(forms.Form):
    scale = forms.ChoiceField(choices=[("tournament", "tournament"), ("dirs", "dirs")])
    a = forms.IntegerField(min_value=0, max_value=3000)
    b = forms.IntegerField(min_value=0, max_value=3000)
    half_stone = forms.BooleanField(required=False)


class ImportFileForm(forms.Form):
    """An EGD results table (`.h9`) or a CSV list of players, at most 2 MB."""

    MAX_BYTES = 2 * 1024 * 1024
    file = forms.FileField(
        label=_("File"),
        help_text=_("An EGD results table (.h9) or a CSV with the columns surname, first_name, rank or rating."),
        widget=forms.ClearableFileInput(attrs={"accept": ".h9,.txt,.csv"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        if not upload.name.lower().endswith((".h9", ".txt", ".csv")):
            raise forms.ValidationError(_("Upload an .h9, .txt or .csv file."))
        return upload


class BackupFileForm(forms.Form):
    """A director's backup file (JSON), at most 5 MB."""

    MAX_BYTES = 5 * 1024 * 1024
    file = forms.FileField(
        label=_("Backup file"),
        help_text=_("A backup file of a Go tournament downloaded from this site (.json)."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        if not upload.name.lower().endswith(".json"):
            raise forms.ValidationError(_("Upload a .json backup file."))
        return upload


class HistoryForm(forms.Form):
    """What the file of a finished tournament does not say, or says in EGD's terms: filled from its header."""

    name = forms.CharField(label=_("Name"), max_length=200)
    start_date = forms.DateField(label=_("Start date"), widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=_("End date"), widget=forms.DateInput(attrs={"type": "date"}))
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    country = forms.CharField(label=_("Country"), max_length=2, initial="RU")
    system = forms.ChoiceField(
        label=_("System"), choices=[c for c in GoSystem.choices if c[0] != GoSystem.DIRS], initial=GoSystem.FUS
    )
    half_stone = forms.BooleanField(label=_("Half-stone step"), required=False, initial=True)
    acceleration = forms.BooleanField(label=_("Acceleration"), required=False, initial=True)
    tiebreak = forms.BooleanField(label=_("Tie-break"), required=False, initial=True)
    komi_normal = forms.DecimalField(label=_("Normal komi"), max_digits=4, decimal_places=1, initial=6.5, min_value=0)
    time_minutes = forms.IntegerField(label=_("Main time, minutes"), min_value=1, max_value=600, initial=60)
    egd_class = forms.ChoiceField(label=_("EGD class"), choices=[("", "—"), *EgdClass.choices], required=False)

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        return data

    @classmethod
    def defaults(cls) -> dict:
        return {name: field.initial for name, field in cls.base_fields.items()}

    @staticmethod
    def initial_from(tags: dict[str, str]) -> dict:
        """The header's event, place, dates, komi, time and class (``EV``, ``PC``, ``DT``, ``KM``, ``TM``, ``CL``),
        and the system and its options where the comment ``CM`` names them as the site's own table writes them."""
        initial: dict = {"name": tags.get("EV", "")}
        comment = tags.get("CM", "").lower()
        if "self-handicap" in comment:
            initial["system"] = GoSystem.PROFS if comment.startswith("profs") else GoSystem.FUS
            initial["half_stone"] = "half-stone levels" in comment
            initial["acceleration"] = "acceleration on" in comment
            initial["tiebreak"] = "no tie-break" not in comment
        country, _comma, city = tags.get("PC", "").partition(",")
        if len(country.strip()) == 2:
            initial["country"] = country.strip().upper()
        initial["city"] = city.strip()
        dates = [d.strip() for d in tags.get("DT", "").split(",") if d.strip()]
        if dates:
            initial["start_date"], initial["end_date"] = dates[0], dates[-1]
        for tag, key, kind in (("KM", "komi_normal", float), ("TM", "time_minutes", float)):
            try:
                initial[key] = kind(tags[tag])
            except (KeyError, ValueError):
                continue
        if "time_minutes" in initial:
            initial["time_minutes"] = max(1, int(initial["time_minutes"]))
        if tags.get("CL", "").upper() in EgdClass.values:
            initial["egd_class"] = tags["CL"].upper()
        return initial
