"""Public pages of the Gorbunov lists, under /ratings/cards/ (namespace ``ratings:gorbunov``)."""

from django.urls import path

from ratings.gorbunov import views

app_name = "gorbunov"

urlpatterns = [
    path("", views.index, name="index"),
    path("calculator/", views.calculator, name="calculator"),
    path("calculator/api/", views.calculator_api, name="calculator_api"),
    path("<slug:slug>/", views.list_detail, name="list_detail"),
]
