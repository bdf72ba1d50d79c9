from federation.filters import PlayerRowFilter
from ratings.models import RatingEntry


class MahjongEntryFilter(PlayerRowFilter):
    """Search by name (either alphabet), city, club and country, on top of the list's date."""

    class Meta:
        model = RatingEntry
        fields = ["q", "city", "club", "country"]
