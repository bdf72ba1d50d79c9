"""The site's URLs plus ``/bench-trivial/``: the least a Django view can do behind every middleware of the site,
the baseline ``bench_public_pages`` compares every public page with."""

from django.http import HttpResponse
from django.urls import path

from federation.urls import handler404  # noqa: F401
from federation.urls import urlpatterns as site_urlpatterns


def trivial(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench-trivial/", trivial), *site_urlpatterns]
