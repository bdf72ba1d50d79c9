"""``/sitemap.xml``: every public page a search engine should know, in both languages (``hreflang`` alternates).

Players, clubs and tournaments are listed one by one (the sitemap framework pages them by 50,000); rating lists by their
newest publication (older weeks and dates are reachable from there).
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from federation.models import Club, Player
from federation.selectors import public_tournaments


class _Bilingual(Sitemap):
    i18n = True
    alternates = True
    x_default = True


class PagesSitemap(_Bilingual):
    changefreq = "weekly"
    priority = 0.8

    def items(self):
        names = [
            "federation:home",
            "federation:player_list",
            "federation:club_list",
            "tournaments:tournament_list",
            "calendar:list",
            "ratings:gorbunov:index",
            "ratings:mahjong:index",
            "go:index",
            "dirs:leaderboard",
            "preferans:index",
            "federation:about",
            "federation:contact",
        ]
        return names + [f"guide:{slug}" for slug in _guide_slugs()]

    def location(self, item):
        if item.startswith("guide:"):
            return reverse("ratings:guide", args=[item.split(":", 1)[1]])
        return reverse(item)


def _guide_slugs() -> list[str]:
    from ratings.guides import GUIDES

    return list(GUIDES)


class RatingListSitemap(_Bilingual):
    changefreq = "weekly"
    priority = 0.9

    def items(self):
        return apps.get_model("ratings", "RatingList").objects.filter(is_active=True).order_by("ordering", "slug")


class PlayerSitemap(_Bilingual):
    changefreq = "weekly"
    priority = 0.5

    def items(self):
        return Player.objects.filter(is_bot=False).order_by("pk").only("pk")


class ClubSitemap(_Bilingual):
    changefreq = "monthly"
    priority = 0.6

    def items(self):
        return Club.objects.order_by("pk").only("pk")


class TournamentSitemap(_Bilingual):
    changefreq = "monthly"
    priority = 0.5

    def items(self):
        return public_tournaments().order_by("pk").only("pk")

    def lastmod(self, item):
        return None


class CalendarSitemap(_Bilingual):
    """Each announced tournament's page in the calendar."""

    changefreq = "daily"
    priority = 0.6

    def items(self):
        from tournaments.models import AnnouncementStatus

        return (
            apps.get_model("tournaments", "Tournament")
            .objects.filter(announcement=AnnouncementStatus.APPROVED)
            .order_by("pk")
            .only("pk")
        )

    def location(self, item):
        return item.get_calendar_url()


SITEMAPS = {
    "pages": PagesSitemap,
    "lists": RatingListSitemap,
    "players": PlayerSitemap,
    "clubs": ClubSitemap,
    "tournaments": TournamentSitemap,
    "calendar": CalendarSitemap,
}
