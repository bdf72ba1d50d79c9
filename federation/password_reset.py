"""Password reset for staff from the admin's login page: Django's own views with the admin's templates (translated
by Django), wired where the admin's login page looks for them (``admin_password_reset``).

Without e-mail set up (``EMAIL_URL``) the site cannot send the link, so the page says that and how to get a new
password, rather than claiming a message is on its way.
"""

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _


class PasswordResetView(auth_views.PasswordResetView):
    def dispatch(self, request, *args, **kwargs):
        if not settings.EMAIL_URL:
            return render(request, "admin/password_reset_unavailable.html", {"title": _("Password reset")})
        return super().dispatch(request, *args, **kwargs)


urlpatterns = [
    path("admin/password_reset/", PasswordResetView.as_view(), name="admin_password_reset"),
    path("admin/password_reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "admin/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("admin/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
