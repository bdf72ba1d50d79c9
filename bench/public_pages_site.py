"""Settings for ``bench_public_pages``: the project's test settings with ``bench/public_pages_urls.py`` as the
URLconf (the site's pages plus a trivial view behind the same middleware). Not a benchmark module itself."""

from federation.settings.test import *  # noqa: F403

ROOT_URLCONF = "bench.public_pages_urls"
DEBUG = False
