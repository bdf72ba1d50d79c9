import pytest
from django.core.exceptions import ValidationError

from ratings.gorbunov.params import ALL_FORMATS, engine_settings, validate
from ratings.models import Engine, RatingList


def test_defaults_are_filled_in():
    params = validate({})
    assert params["formats"] == ALL_FORMATS
    assert params["min_participants"] == 4
    assert params["sealed_cap"] is True
    assert engine_settings({"sqrt_rule": True}).sqrt_rule is True


@pytest.mark.parametrize(
    ("params", "key"),
    [
        ({"colour": 1}, "colour"),
        ({"formats": "sealed"}, "formats"),
        ({"formats": ["poker"]}, "formats"),
        ({"formats": []}, "formats"),
        ({"sqrt_rule": "yes"}, "sqrt_rule"),
        ({"sealed_cap": 1}, "sealed_cap"),
        ({"min_participants": 1}, "min_participants"),
        ({"min_participants": 4.0}, "min_participants"),
        ({"draft_bonus_since": "2004-4-1"}, "draft_bonus_since"),
    ],
)
def test_bad_parameters_are_refused_naming_the_key(params, key):
    with pytest.raises(ValueError, match=key):
        validate(params)


@pytest.mark.django_db
def test_rating_list_clean_refuses_what_the_engine_does_not_accept():
    rating_list = RatingList(slug="g", name="g", engine=Engine.GORBUNOV, params={"min_participants": 0})
    with pytest.raises(ValidationError) as error:
        rating_list.full_clean()
    assert "min_participants" in str(error.value)


@pytest.mark.django_db
def test_admin_form_shows_the_refused_parameter(admin_client):
    response = admin_client.post(
        "/admin/ratings/ratinglist/add/",
        {
            "slug": "g",
            "name": "g",
            "name_en": "",
            "engine": "gorbunov",
            "params": '{"sqrt_rule": "yes"}',
            "ordering": 0,
        },
    )
    assert response.status_code == 200
    assert "sqrt_rule" in response.content.decode()
    assert not RatingList.objects.filter(slug="g").exists()
