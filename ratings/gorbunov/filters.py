import datetime as dt

import django_filters
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from federation.filters import PlayerRowFilter
from federation.formatting import day
from ratings.models import RatingEntry


def iso_week(monday: dt.date) -> str:
    """The ``?week=`` value of a publication's Monday (2026-W10)."""
    year, week, _weekday = monday.isocalendar()
    return f"{year}-W{week:02d}"


def week_label(monday: dt.date) -> str:
    """A published week as a person reads it, in the page's date form: 02.03.2026 – 08.03.2026."""
    return f"{day(monday)} – {day(monday + dt.timedelta(days=6))}"


class ListFilter(PlayerRowFilter):
    """The list page's filter; ``week`` is read by the view (it chooses the snapshot) and kept in the form.

    The week is chosen from the list's publications (a select, labelled with the reader's dates), not typed into an
    ``<input type=week>``, which some browsers show as a bare text field and others label in the browser's language
    (issue 28). It still sends ``?week=2026-W10``; the newest week is the empty choice (the current list).
    """

    week = django_filters.ChoiceFilter(label=_("Rating week"), method="keep", choices=[], empty_label=None)

    class Meta:
        model = RatingEntry
        fields = ["week", "q", "city", "club", "country"]

    def __init__(self, *args, mondays=(), **kwargs):
        super().__init__(*args, **kwargs)
        mondays = sorted(mondays, reverse=True)
        choices = []
        for i, monday in enumerate(mondays):
            label = week_label(monday)
            if i == 0:
                choices.append(("", gettext("%(week)s (current list)") % {"week": label}))
            else:
                choices.append((iso_week(monday), label))
        self.filters["week"].extra["choices"] = choices

    def keep(self, queryset, name, value):
        return queryset
