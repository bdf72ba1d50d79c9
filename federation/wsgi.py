import gc

from django.core.wsgi import get_wsgi_application

from federation.settings import use_default_settings

# One default for every entry point: DJANGO_SETTINGS_MODULE, else the .env file's, else the local settings.
use_default_settings()

application = get_wsgi_application()

# Everything loaded so far (Django, the apps, the URLconf, the translations) lives as long as the process. Moved out
# of the collector's generations, it is no longer walked by every cyclic collection a request triggers (issue 16:
# the pauses showed up in the ORM's query building of a cold list page; about 5% of it). Done once, after start-up,
# as large Django sites do; with gunicorn's ``--preload`` the frozen objects are also shared with the workers
# without copy-on-write from the collector touching them.
gc.collect()
gc.freeze()
