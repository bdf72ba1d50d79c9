import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player
from federation.selectors import player_search
from ratings.models import RatingEntry


class ListFilter(django_filters.FilterSet):
    """The list page's filter; ``week`` is read by the view (it chooses the snapshot) and kept in the form."""

    week = django_filters.CharFilter(
        label=_("Rating week"), method="keep", widget=forms.TextInput(attrs={"type": "week", "placeholder": "2026-W10"})
    )
    q = django_filters.CharFilter(
        label=_("Name"),
        method="search",
        widget=forms.TextInput(attrs={"placeholder": _("Surname or name, either alphabet"), "type": "search"}),
    )
    city = django_filters.ChoiceFilter(
        label=_("City"), field_name="player__city", choices=[], empty_label=_("All cities")
    )
    club = django_filters.ModelChoiceFilter(
        label=_("Club"), field_name="player__club", queryset=Club.objects.order_by("name"), empty_label=_("All clubs")
    )

    class Meta:
        model = RatingEntry
        fields = ["week", "q", "city", "club"]

    def __init__(self, *args, cities=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.filters["city"].extra["choices"] = [(c, c) for c in cities]

    def keep(self, queryset, name, value):
        return queryset

    def search(self, queryset, name, value):
        return queryset.filter(player__in=player_search(queryset=Player.objects.all(), search=value).values("pk"))
