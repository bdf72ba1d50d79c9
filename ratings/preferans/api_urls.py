from federation.api.common import api_urlpatterns
from ratings.preferans.api import api

app_name = "preferans_api"

urlpatterns = api_urlpatterns(api)
