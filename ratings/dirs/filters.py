import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player
from federation.selectors import player_search

from .models import DirsRating


class DirsRatingFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        label=_("Name"),
        method="search",
        widget=forms.TextInput(attrs={"placeholder": _("Surname or name, either alphabet"), "type": "search"}),
    )
    club = django_filters.ModelChoiceFilter(
        label=_("Club"), queryset=Club.objects.order_by("name"), empty_label=_("All clubs")
    )

    class Meta:
        model = DirsRating
        fields = ["q", "club"]

    def search(self, queryset, name, value):
        players = player_search(queryset=Player.objects.all(), search=value)
        return queryset.filter(player__in=players)
