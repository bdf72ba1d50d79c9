from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: A rebuild covers at most this many days in one go (two years of daily history and a little more).
MAX_REBUILD_DAYS = 800


class RebuildForm(forms.Form):
    start = forms.DateField(label=_("First date"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Last date"), widget=forms.DateInput(attrs={"type": "date"}))
    confirm = forms.BooleanField(
        label=_("I understand that the snapshots of these dates are deleted and written again"),
        error_messages={"required": _("Tick the confirmation: the rebuild rewrites the snapshots of the range.")},
    )

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end:
            if end < start:
                self.add_error("end", _("The last date is before the first."))
            elif (end - start).days + 1 > MAX_REBUILD_DAYS:
                self.add_error("end", _("At most %(days)s days at once.") % {"days": MAX_REBUILD_DAYS})
            elif end > timezone.localdate() + timedelta(days=0):
                self.add_error("end", _("The last date is after today."))
        return cleaned


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)
