"""The public API benchmark's settings: the test settings, with a URLconf that adds a trivial JSON view beside the
site's own (the baseline the API's answers are compared with) and no rate limit in the way of the load."""

from federation.settings.test import *  # noqa: F403

ROOT_URLCONF = "bench._api_urls"
API_ANON_RATE = "100000000/60"
DEBUG = False
