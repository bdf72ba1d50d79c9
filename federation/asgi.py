from django.core.asgi import get_asgi_application

from federation.settings import use_default_settings

# One default for every entry point: DJANGO_SETTINGS_MODULE, else the .env file's, else the local settings.
use_default_settings()

application = get_asgi_application()
