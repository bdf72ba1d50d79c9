"""A rating list's parameters in the admin are labelled fields checked by the engine, not a JSON box."""

import pytest

from ratings.gorbunov.services import gorbunov_setup_defaults
from ratings.models import RatingList

pytestmark = pytest.mark.django_db


def _form(rating_list, **params):
    data = {
        "slug": rating_list.slug,
        "name": rating_list.name,
        "name_en": rating_list.name_en,
        "engine": rating_list.engine,
        "is_active": "on",
        "ordering": rating_list.ordering,
        "param_formats": ["limited", "draft"],
        "param_sealed_cap": "on",
        "param_min_participants": "4",
        "param_draft_bonus_since": "2004-04-01",
    }
    data.update(params)
    return data


def test_gorbunov_list_parameters_as_fields(admin_client):
    gorbunov_setup_defaults()
    rating_list = RatingList.objects.get(slug="gorbunov-limited")
    page = f"/admin/ratings/ratinglist/{rating_list.pk}/change/"
    text = admin_client.get(page).content.decode()
    assert 'name="params"' not in text
    assert "Форматы, которые берёт список" in text
    assert "Силед" in text
    response = admin_client.post(page, _form(rating_list, param_sqrt_rule="on"))
    assert response.status_code == 302, response.content.decode()[:3000]
    rating_list.refresh_from_db()
    assert rating_list.params["formats"] == ["limited", "draft"]
    assert rating_list.params["sqrt_rule"] is True


def test_a_value_the_engine_refuses_is_named_and_nothing_changes(admin_client):
    gorbunov_setup_defaults()
    rating_list = RatingList.objects.get(slug="gorbunov-limited")
    before = dict(rating_list.params)
    response = admin_client.post(
        f"/en/admin/ratings/ratinglist/{rating_list.pk}/change/", _form(rating_list, param_min_participants="1")
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "The engine refuses this value (1 is not a whole number of at least 2)." in text
    rating_list.refresh_from_db()
    assert rating_list.params == before
