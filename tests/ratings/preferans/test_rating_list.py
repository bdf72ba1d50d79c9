"""The preferans rating list: created by ``migrate``, its parameters are the engine's settings, and they are fixed
once a deal is rated (explanations are rebuilt from the stored numbers with them)."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from ratings.engines.preferans import AMATEUR, DEFAULT_SETTINGS, PRO, PlayerState, PreferansSettings, rate_deal
from ratings.models import Engine, RatingList
from ratings.preferans import selectors
from ratings.preferans.params import DEFAULTS, validate
from ratings.preferans.services import (
    DealInput,
    deals_apply,
    game_create,
    preferans_setup_defaults,
    rating_settings,
)
from tests.factories import PlayerFactory
from tests.ratings.preferans.conftest import WHEN, rated

pytestmark = pytest.mark.django_db

GAMES = "/api/preferans/games/"


def _list():
    return RatingList.objects.get(engine=Engine.PREFERANS)


def test_migrate_creates_the_list_with_the_rules_parameters_once():
    rating_list = _list()
    assert rating_list.params == DEFAULTS
    with translation.override("ru"):
        assert rating_list.get_absolute_url() == "/preferans/"
    assert rating_settings() == DEFAULT_SETTINGS
    assert preferans_setup_defaults() == rating_list
    assert RatingList.objects.filter(engine=Engine.PREFERANS).count() == 1


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"k": 1}, "unknown parameter: k"),
        ({"x": "6"}, "x: '6' is not a number"),
        ({"y": True}, "y: True is not a number"),
        ({"x": 0}, "x: 0.0 is not a positive number"),
        ({"min_kd": 3, "max_kd": 2}, "min_kd: 3.0 is larger than max_kd (2.0)"),
    ],
)
def test_bad_parameters_are_refused_by_name(params, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        validate(params)
    rating_list = _list()
    rating_list.params = params
    with pytest.raises(ValidationError) as error:
        rating_list.full_clean()
    assert message in " ".join(error.value.message_dict["params"])


def test_deals_are_rated_and_explained_with_the_lists_parameters():
    """Before the first deal the parameters may change; the deal is then rated (on the locking statement's path
    too) and explained with them."""
    rating_list = _list()
    rating_list.params = {"x": 3.0, "y": 11.0, "start_rating": 1200}
    rating_list.full_clean()
    rating_list.save()
    settings = PreferansSettings(**validate(rating_list.params))
    assert rating_settings() == settings
    a, b, c = rated(1000), rated(1800), rated(1500)
    game, _ = game_create(server=None, external_id="p", player_ids=[a.pk, b.pk, c.pk], played_at=WHEN)
    whists = {a.pk: -5, b.pk: 3, c.pk: 2}
    applied = deals_apply(deals=[DealInput(game=game, whists=whists)])
    before = {
        str(p.pk): PlayerState(r, r, PRO if r >= 1800 else AMATEUR) for p, r in ((a, 1000.0), (b, 1800.0), (c, 1500.0))
    }
    expected = rate_deal(before, {str(k): v for k, v in whists.items()}, settings)
    got = {row.player_id: row.rating_after for row in applied[0].results}
    for change in expected.changes:
        assert got[int(change.player)] == pytest.approx(change.after.rating, abs=1e-12)
    default = rate_deal(before, {str(k): v for k, v in whists.items()})
    assert got[a.pk] != pytest.approx(default.changes[0].after.rating, abs=1e-6)
    explained = selectors.deal_explanations(deals=[applied[0].deal.pk])
    assert explained[(applied[0].deal.pk, a.pk)] == expected.changes[0].explanation

    newcomer = PlayerFactory()
    game_create(server=None, external_id="q", player_ids=[newcomer.pk, a.pk], played_at=WHEN)
    assert newcomer.preferans_rating.rating == 1200.0


def test_the_game_servers_deal_is_rated_with_the_lists_parameters(post, server):
    rating_list = _list()
    rating_list.params = {"base_kd": 4.0}
    rating_list.full_clean()
    rating_list.save()
    a, b = rated(1000), rated(1000)
    game = post(GAMES, {"id": "g-1", "players": [a.pk, b.pk]}, server.token).json()["game"]
    response = post(f"{GAMES}{game}/deals/", {"id": "d-1", "whists": {str(a.pk): 4, str(b.pk): -4}}, server.token)
    assert response.status_code == 201
    expected = rate_deal(
        {"a": PlayerState(1000.0, 1000.0), "b": PlayerState(1000.0, 1000.0)},
        {"a": 4, "b": -4},
        PreferansSettings(**validate(rating_list.params)),
    )
    assert response.json()["changes"][0]["after"] == pytest.approx(expected.changes[0].after.rating, abs=1e-12)


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def test_parameters_are_fixed_once_a_deal_is_rated(admin_client, english):
    a, b = PlayerFactory(), PlayerFactory()
    game, _ = game_create(server=None, external_id="p", player_ids=[a.pk, b.pk], played_at=WHEN)
    deals_apply(deals=[DealInput(game=game, whists={a.pk: 1, b.pk: -1})])
    rating_list = _list()

    rating_list.params = {**DEFAULTS, "x": 7.0}
    with pytest.raises(ValidationError) as error:
        rating_list.full_clean()
    assert "can no longer change" in " ".join(error.value.message_dict["params"])

    rating_list.params, rating_list.engine = dict(DEFAULTS), Engine.GORBUNOV
    with pytest.raises(ValidationError):
        rating_list.full_clean()

    rating_list = _list()
    rating_list.name = "Преферанс, клуб"  # names may change: only the numbers are fixed
    rating_list.full_clean()
    rating_list.save()

    page = f"/en/admin/ratings/ratinglist/{rating_list.pk}/change/"
    form = {
        "slug": rating_list.slug,
        "name": rating_list.name,
        "name_en": rating_list.name_en,
        "engine": Engine.PREFERANS,
        **{f"param_{key}": value for key, value in DEFAULTS.items()},
        "param_x": "7",
        "is_active": "on",
        "ordering": rating_list.ordering,
    }
    response = admin_client.post(page, form)
    assert response.status_code == 200
    assert "can no longer change" in response.content.decode()
    assert _list().params == DEFAULTS


def test_there_is_one_preferans_list(english):
    second = RatingList(slug="preferans-2", name="Второй", engine=Engine.PREFERANS, params={})
    with pytest.raises(ValidationError) as error:
        second.full_clean()
    assert "one preferans list" in " ".join(error.value.message_dict["params"])
