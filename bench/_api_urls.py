"""The site's URLs and one trivial JSON view, for ``bench_api``."""

from django.http import JsonResponse
from django.urls import path

from federation.urls import handler404
from federation.urls import urlpatterns as site


def trivial(request):
    return JsonResponse({"ok": True})


urlpatterns = [path("bench/trivial/", trivial), *site]

__all__ = ["handler404", "urlpatterns"]
