"""The admin for each role: organisers enter results, staff approve, accredit and set high K."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from tests.factories import PlayerFactory, ResultFactory, TournamentFactory, federation_staff, organiser
from tournaments.models import Result, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/tournaments/tournament/add/"


def _tournament_form(**overrides):
    data = {
        "discipline": "ccg",
        "name": "Турнир клуба",
        "start_date": "2026-03-07",
        "end_date": "2026-03-07",
        "city": "Москва",
        "country": "RU",
        "card_format": "constructed",
        "k": "2",
        "hanchans": "",
        "participants": "",
        "online_platform": "",
        "go_system": "",
        "rounds": "",
        "stages-TOTAL_FORMS": "0",
        "stages-INITIAL_FORMS": "0",
    }
    data.update(overrides)
    return data


def editor_post(rows, *, initial=0):
    """The results editor's form for ``rows`` of (place, player or None, participant name, result id or None)."""
    data = {"form-TOTAL_FORMS": str(len(rows)), "form-INITIAL_FORMS": str(initial)}
    for i, (place, player, name, result_id) in enumerate(rows):
        data[f"form-{i}-id"] = str(result_id or "")
        data[f"form-{i}-place"] = str(place)
        data[f"form-{i}-player"] = str(player.pk) if player else ""
        data[f"form-{i}-participant_name"] = name
    return data


def test_admin_is_for_staff_only(client):
    assert client.get("/admin/").status_code == 302
    user = get_user_model().objects.create_user("visitor", password="pass-word-123")
    client.force_login(user)
    response = client.get("/admin/tournaments/tournament/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_organiser_creates_a_tournament_then_enters_its_results_in_the_editor(client):
    user = organiser()
    client.force_login(user)
    players = [PlayerFactory() for _ in range(4)]
    response = client.post(ADD_URL, _tournament_form())
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name="Турнир клуба")
    assert tournament.organiser == user
    assert tournament.status == TournamentStatus.DRAFT
    editor = f"/admin/tournaments/tournament/{tournament.pk}/results/"
    response = client.post(editor, editor_post([(i + 1, p, "", None) for i, p in enumerate(players)]))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert tournament.results.count() == 4


def test_organiser_cannot_set_k_4(client):
    client.force_login(organiser())
    response = client.post(ADD_URL, _tournament_form(k="4"))
    assert response.status_code == 200
    assert "Только сотрудники федерации могут ставить K выше 2" in response.content.decode()
    assert not Tournament.objects.exists()


def test_staff_can_set_k_4(client):
    client.force_login(federation_staff())
    response = client.post(ADD_URL, _tournament_form(k="4"))
    assert response.status_code == 302
    assert Tournament.objects.get().k == 4


def test_organiser_cannot_change_k_once_results_are_in(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, k=1)
    ResultFactory(tournament=tournament, place=1)
    client.force_login(user)
    data = _tournament_form(k="2", name=tournament.name)
    response = client.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", data)
    assert response.status_code == 200
    assert "только сотрудники федерации могут изменить K" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.k == 1


def test_organiser_cannot_set_k_3(client):
    client.force_login(organiser())
    response = client.post(ADD_URL, _tournament_form(k="3"))
    assert response.status_code == 200
    assert "Только сотрудники федерации могут ставить K выше 2" in response.content.decode()
    assert not Tournament.objects.exists()


def test_staff_can_set_k_3_and_change_it_after_results(client):
    staff = federation_staff()
    client.force_login(staff)
    assert client.post(ADD_URL, _tournament_form(k="3")).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.k == 3
    ResultFactory(tournament=tournament, place=1)
    data = _tournament_form(k="8", name=tournament.name)
    response = client.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.k == 8


def test_organiser_may_change_k_between_1_and_2_before_results(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, k=1)
    client.force_login(user)
    data = _tournament_form(k="2", name=tournament.name)
    response = client.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.k == 2


def test_organiser_keeps_k_and_edits_the_rest_once_results_are_in(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, k=2)
    ResultFactory(tournament=tournament, place=1)
    client.force_login(user)
    data = _tournament_form(k="2", name="Новое имя")
    response = client.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.k) == ("Новое имя", 2)


def test_end_date_before_start_is_refused(client):
    client.force_login(organiser())
    response = client.post(ADD_URL, _tournament_form(start_date="2026-03-08", end_date="2026-03-07"))
    assert response.status_code == 200
    assert "Дата окончания раньше даты начала" in response.content.decode()


def test_duplicate_player_in_the_editor_is_refused(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT)
    client.force_login(user)
    player = PlayerFactory()
    response = client.post(
        f"/admin/tournaments/tournament/{tournament.pk}/results/",
        editor_post([(1, player, "", None), (2, player, "", None)]),
    )
    assert response.status_code == 200
    assert "уже есть в строке 1" in response.content.decode()
    assert not Result.objects.exists()


def _submitted(user):
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, k=2)
    for place in range(1, 5):
        ResultFactory(tournament=tournament, place=place)
    return tournament


def test_organiser_submits_but_cannot_approve(client):
    user = organiser()
    tournament = _submitted(user)
    client.force_login(user)
    changelist = "/admin/tournaments/tournament/"
    response = client.get(changelist)
    assert 'value="submit"' in response.content.decode()
    assert 'value="approve"' not in response.content.decode()
    client.post(changelist, {"action": "submit", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.SUBMITTED
    client.post(changelist, {"action": "approve", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.SUBMITTED


def test_staff_approve_and_accredit(client):
    staff = federation_staff()
    tournament = TournamentFactory(
        organiser=organiser(), status=TournamentStatus.SUBMITTED, discipline="mahjong", k=None, hanchans=8
    )
    for place in range(1, 5):
        ResultFactory(tournament=tournament, place=place)
    client.force_login(staff)
    changelist = "/admin/tournaments/tournament/"
    client.post(changelist, {"action": "approve", "_selected_action": [tournament.pk]})
    client.post(changelist, {"action": "mahjong_accredit", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.APPROVED
    assert tournament.approved_by == staff
    assert tournament.accredited
    assert tournament.accredited_by == staff
    assert tournament.accredited_at is not None


def test_organisers_cannot_accredit(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, discipline="mahjong", hanchans=8)
    client.force_login(user)
    text = client.get("/admin/tournaments/tournament/").content.decode()
    assert "mahjong_accredit" not in text
    client.post("/admin/tournaments/tournament/", {"action": "mahjong_accredit", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert not tournament.accredited


def test_approval_and_return_to_draft_keep_the_players_tournament_counts(client):
    tournament = _submitted(organiser())
    player = tournament.results.first().player
    tournament.status = TournamentStatus.DRAFT
    tournament.save()
    federation_staff_user = federation_staff()
    from federation.services import player_tournament_counts_refresh

    player_tournament_counts_refresh(player_ids=[player.pk])
    player.refresh_from_db()
    assert player.tournament_count == 0
    client.force_login(federation_staff_user)
    client.post("/admin/tournaments/tournament/", {"action": "approve", "_selected_action": [tournament.pk]})
    player.refresh_from_db()
    assert player.tournament_count == 1
    client.post("/admin/tournaments/tournament/", {"action": "return_to_draft", "_selected_action": [tournament.pk]})
    player.refresh_from_db()
    assert player.tournament_count == 0


def test_approval_with_gaps_is_refused_with_the_reason(client):
    staff = federation_staff()
    tournament = TournamentFactory(status=TournamentStatus.SUBMITTED, k=1)
    for place in (1, 2, 4):
        ResultFactory(tournament=tournament, place=place)
    client.force_login(staff)
    response = client.post(
        "/admin/tournaments/tournament/", {"action": "approve", "_selected_action": [tournament.pk]}, follow=True
    )
    assert "Место 4 больше числа участников (3)" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.SUBMITTED


def test_approval_shows_why_a_card_game_tournament_with_gaps_cannot_be_approved(client):
    tournament = TournamentFactory(status=TournamentStatus.SUBMITTED, k=1)
    for place in range(1, 6):
        ResultFactory(tournament=tournament, place=place)
    tournament.results.filter(place=5).update(place=7)
    client.force_login(federation_staff())
    response = client.post(
        "/en/admin/tournaments/tournament/",
        {"action": "approve", "_selected_action": [tournament.pk]},
        follow=True,
    )
    text = response.content.decode()
    assert "Place 7 is larger than the number of participants (5)." in text
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.SUBMITTED
    tournament.results.filter(place=7).update(place=6)
    tournament.results.filter(place=4).delete()
    text = client.post(
        "/en/admin/tournaments/tournament/", {"action": "approve", "_selected_action": [tournament.pk]}, follow=True
    ).content.decode()
    assert "Places have gaps: missing 4." in text or "larger than the number of participants" in text


def test_organisers_see_only_their_own_tournaments(client):
    mine = TournamentFactory(organiser=organiser(), name="Мой турнир", status=TournamentStatus.DRAFT)
    theirs = TournamentFactory(organiser=organiser(), name="Чужой турнир", status=TournamentStatus.DRAFT)
    client.force_login(mine.organiser)
    text = client.get("/admin/tournaments/tournament/").content.decode()
    assert "Мой турнир" in text
    assert "Чужой турнир" not in text
    assert client.get(f"/admin/tournaments/tournament/{theirs.pk}/change/").status_code in (302, 403, 404)


def test_history_shows_who_changed_what(client):
    staff = federation_staff(username="olga")
    tournament = _submitted(organiser())
    client.force_login(staff)
    client.post("/admin/tournaments/tournament/", {"action": "approve", "_selected_action": [tournament.pk]})
    response = client.get(f"/admin/tournaments/tournament/{tournament.pk}/history/")
    assert response.status_code == 200
    assert "olga" in response.content.decode()
    assert tournament.history.filter(history_user=staff, status=TournamentStatus.APPROVED).exists()


def test_staff_find_players_by_autocomplete(client):
    PlayerFactory(last_name="Щукин", last_name_latin="Shchukin")
    client.force_login(federation_staff())
    response = client.get(
        "/admin/autocomplete/",
        {"term": "Щук", "app_label": "tournaments", "model_name": "result", "field_name": "player"},
    )
    assert response.status_code == 200
    assert "Щукин" in response.json()["results"][0]["text"]


def test_staff_merge_duplicate_players_without_losing_results(client):
    keep = PlayerFactory(last_name="Петров", ema_id="")
    duplicate = PlayerFactory(last_name="Петров", ema_id="12345678")
    first = TournamentFactory(start_date=datetime.date(2025, 1, 1))
    second = TournamentFactory(start_date=datetime.date(2025, 2, 1))
    ResultFactory(tournament=first, player=keep, place=1)
    ResultFactory(tournament=second, player=duplicate, place=2)
    client.force_login(federation_staff())
    changelist = "/admin/federation/player/"
    response = client.post(changelist, {"action": "merge_players", "_selected_action": [keep.pk, duplicate.pk]})
    assert response.status_code == 200
    assert "Объединить" in response.content.decode()
    response = client.post(
        changelist, {"action": "merge_players", "_selected_action": [keep.pk, duplicate.pk], "keep": keep.pk}
    )
    assert response.status_code == 302
    keep.refresh_from_db()
    assert keep.ema_id == "12345678"
    assert sorted(keep.results.values_list("place", flat=True)) == [1, 2]
    assert not type(keep).objects.filter(pk=duplicate.pk).exists()


def test_merge_refuses_players_who_met_in_one_tournament(client):
    a, b = PlayerFactory(), PlayerFactory()
    tournament = TournamentFactory(name="Общий турнир")
    ResultFactory(tournament=tournament, player=a, place=1)
    ResultFactory(tournament=tournament, player=b, place=2)
    client.force_login(federation_staff())
    response = client.post(
        "/admin/federation/player/",
        {"action": "merge_players", "_selected_action": [a.pk, b.pk], "keep": a.pk},
        follow=True,
    )
    assert "Общий турнир" in response.content.decode()
    assert Result.objects.count() == 2


def test_organiser_cannot_merge_players(client):
    a, b = PlayerFactory(), PlayerFactory()
    client.force_login(organiser())
    response = client.get("/admin/federation/player/")
    assert "merge_players" not in response.content.decode()
    client.post(
        "/admin/federation/player/", {"action": "merge_players", "_selected_action": [a.pk, b.pk], "keep": a.pk}
    )
    assert type(a).objects.count() == 2


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "1899-12-31", "2101-01-01"])
def test_a_date_beyond_the_sites_bounds_is_refused_by_name_and_nothing_is_saved(client, day):
    """Year 9999 was accepted and later overflowed a rating week; every admin date lies in 1900..2100."""
    client.force_login(federation_staff())
    page = client.post(ADD_URL, _tournament_form(start_date=day, end_date=day))
    assert page.status_code == 200
    errors = page.context["adminform"].form.errors
    assert errors["start_date"] == ["Введите дату между 01.01.1900 и 31.12.2100."]
    assert not Tournament.objects.exists()


def test_an_inline_date_is_bounded_too():
    """The bound is on every form of the site's own models: each ModelAdmin and inline builds on the bounded bases."""
    import datetime as dt

    from django.contrib import admin
    from django.core.exceptions import ValidationError

    from federation.admin_security import FederationInline, FederationModelAdmin, date_within_bounds
    from tournaments.admin import StageInline

    assert issubclass(StageInline, FederationInline)
    ours = {"federation", "ratings", "tournaments", "dirs", "gorbunov", "mahjong", "preferans", "go"}
    unbounded = [
        model._meta.label
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in ours and not isinstance(model_admin, FederationModelAdmin)
    ]
    assert unbounded == []
    date_within_bounds(dt.date(2026, 3, 7))
    with pytest.raises(ValidationError):
        date_within_bounds(dt.datetime(2101, 1, 1, 12, 0, tzinfo=dt.UTC))
