from django.urls import path

from federation.caching import cached_page
from tournaments.calendar import feeds, views

app_name = "calendar"

urlpatterns = [
    path("", views.calendar_list, name="list"),
    path("calendar.ics", views.calendar_ics, name="ics"),
    path("<int:pk>.ics", views.tournament_ics, name="tournament_ics"),
    path("<slug:discipline>.ics", views.calendar_ics, name="ics_discipline"),
    path("feed/", cached_page(scopes=("tournaments",))(feeds.CalendarFeed()), name="feed"),
    path("feed/<slug:discipline>/", cached_page(scopes=("tournaments",))(feeds.CalendarFeed()), name="feed_discipline"),
    path("<int:pk>/", views.calendar_detail, name="detail"),
    path("<int:pk>/register/", views.calendar_register, name="register"),
    path("<int:pk>/register/sent/", views.calendar_registered, name="registered"),
    path("confirm/<str:token>/", views.calendar_confirm, name="confirm"),
    path("cancel/<str:token>/", views.calendar_cancel, name="cancel"),
]

#: The rating lists' and players' Atom feeds, under /feeds/ (namespace ``feeds``).
feed_patterns = (
    [
        path(
            "lists/<slug:slug>/",
            cached_page(scopes=("ratings",))(feeds.RatingListFeed()),
            name="rating_list",
        ),
        path(
            "players/<int:pk>/",
            cached_page(scopes=("ratings", "registry", "tournaments"))(feeds.PlayerFeed()),
            name="player",
        ),
    ],
    "feeds",
)
