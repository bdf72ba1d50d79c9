app_name = "preferans_api"

urlpatterns: list = []
