from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path, re_path

from federation import password_reset, views
from federation.api.common import api_urlpatterns, not_found_in
from federation.api.http import finish
from federation.api.v1 import api as api_v1
from federation.health import HealthView
from federation.sitemaps import SITEMAPS
from tournaments.calendar import urls as calendar_urls

# Russian lives at the root and English under /en/ (prefix_default_language=False): every page has one address
# per language that can be shared, and a visitor with no cookie sees Russian whatever the browser asks for.
urlpatterns = [
    # The game servers' JSON API has no language.
    path("api/preferans/", include("ratings.preferans.api_urls")),
    # The public read-only API, versioned in its address (README, "Public API").
    path("api/v1/", include((api_urlpatterns(api_v1, after=finish), "api_v1"))),
    # Every other address under /api/ answers JSON too (issue 27): /api/ itself, an API that does not exist.
    re_path(r"^api/", not_found_in(api_v1)),
    # For search engines, one address for both languages.
    path("robots.txt", views.robots_txt, name="robots"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    # For uptime monitors: 200, or 503 naming what is down (federation/health.py).
    path("health/", HealthView.as_view(), name="health"),
]
urlpatterns += i18n_patterns(
    # Before the admin's own addresses: its login page links to the password reset found here.
    *password_reset.urlpatterns,
    path("admin/", admin.site.urls),
    path("", include("federation.urls_public")),
    path("tournaments/", include("tournaments.urls")),
    path("calendar/", include("tournaments.calendar.urls")),
    path("feeds/", include(calendar_urls.feed_patterns)),
    path("ratings/", include("ratings.urls")),
    path("go/dirs/", include("ratings.dirs.urls")),
    path("go/", include("tournaments.go.urls")),
    path("preferans/", include("ratings.preferans.urls")),
    prefix_default_language=False,
)

# Self-contained pages that cannot fail again (a wrong Host fails every request.get_host()); JSON on the APIs.
handler400 = "federation.errors.bad_request"
handler500 = "federation.errors.server_error"
handler404 = "federation.views.page_not_found"
