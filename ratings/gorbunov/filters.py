import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from federation.filters import PlayerRowFilter
from ratings.models import RatingEntry


class ListFilter(PlayerRowFilter):
    """The list page's filter; ``week`` is read by the view (it chooses the snapshot) and kept in the form."""

    week = django_filters.CharFilter(
        label=_("Rating week"), method="keep", widget=forms.TextInput(attrs={"type": "week", "placeholder": "2026-W10"})
    )

    class Meta:
        model = RatingEntry
        fields = ["week", "q", "city", "club", "country"]

    def keep(self, queryset, name, value):
        return queryset
