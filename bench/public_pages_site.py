"""Settings for ``bench_public_pages``: the project's test settings with ``bench/public_pages_urls.py`` as the
URLconf (the site's pages plus a trivial view behind the same middleware), and Django's cache where production keeps
it: on Redis at ``DJANGO_CACHE_URL`` (the base settings' choice; the test settings' per-process memory could not be
emptied from the benchmark, so a "cold" request would find the page). Not a benchmark module itself."""

from federation.settings import base
from federation.settings.test import *  # noqa: F403

ROOT_URLCONF = "bench.public_pages_urls"
DEBUG = False
CACHES = base.CACHES
