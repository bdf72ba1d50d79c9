"""Importing results from CSV and XLSX through the admin: preview, every kind of bad input, confirmation."""

import datetime
import hashlib
import io
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import PlayerFactory, ResultFactory, TournamentFactory, federation_staff, organiser
from tournaments.importing import results_parse
from tournaments.models import Discipline, Result, TournamentStatus

pytestmark = pytest.mark.django_db


def _url(tournament, language="/en"):
    return f"{language}/admin/tournaments/tournament/{tournament.pk}/import/"


def _csv(text, name="results.csv", encoding="utf-8"):
    return SimpleUploadedFile(name, text.encode(encoding), content_type="text/csv")


def _xlsx(rows, name="results.xlsx"):
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return SimpleUploadedFile(name, buffer.getvalue())


def _preview(client, tournament, upload, language="/en"):
    return client.post(_url(tournament, language), {"file": upload, "preview": "1"})


def _confirm(client, tournament, sha256, language="/en"):
    return client.post(_url(tournament, language), {"confirm": "1", "sha256": sha256})


def _problems(response):
    return [str(problem) for problem in response.context["report"].problems]


@pytest.fixture
def owner():
    return organiser()


@pytest.fixture
def tournament(owner):
    return TournamentFactory(status=TournamentStatus.DRAFT, organiser=owner, k=1)


@pytest.fixture
def players():
    return [
        PlayerFactory(last_name="Иванов", first_name="Иван", last_name_latin="Ivanov", first_name_latin="Ivan"),
        PlayerFactory(last_name="Смирнова", first_name="Анна", last_name_latin="Smirnova", first_name_latin="Anna"),
        PlayerFactory(last_name="Петров", first_name="Пётр", last_name_latin="Petrov", first_name_latin="Petr"),
    ]


@pytest.fixture
def logged_in(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def existing(tournament):
    """A result entered before the import: a refused import must leave it in place."""
    return ResultFactory(tournament=tournament, place=1)


def _assert_refused(response, *expected):
    assert response.status_code == 200
    problems = _problems(response)
    for text in expected:
        assert any(text in problem for problem in problems), (text, problems)
    assert response.context["report"].is_clean is False
    assert "Save " not in response.content.decode()


# A clean file, saved after confirmation -----------------------------------------------------------------------------


def test_clean_csv_is_previewed_then_saved_on_confirmation(logged_in, tournament, players, existing):
    text = (
        "\ufeffМесто;ID;Фамилия;Имя;Участник;Клуб\n"
        f"1;{players[2].pk};;;;Север\n"
        "2;;smirnova;ANNA;;\n"
        "3;;Иванов;Иван;;\n"
        "4;;;;Гость Турнира;\n"
    )
    response = _preview(logged_in, tournament, _csv(text))
    content = response.content.decode()
    assert response.status_code == 200
    assert _problems(response) == []
    assert "Save 4 results" in content
    assert "4 result rows read" in content
    assert f"/admin/federation/player/{players[1].pk}/change/" in content
    assert "Columns not used: Клуб." in content
    assert "replaces" in content
    assert list(Result.objects.filter(tournament=tournament)) == [existing]

    response = _confirm(logged_in, tournament, response.context["sha256"])
    assert response.status_code == 302
    assert response["Location"] == f"/en/admin/tournaments/tournament/{tournament.pk}/change/"
    saved = list(tournament.results.order_by("place").values_list("place", "player_id", "participant_name"))
    assert saved == [
        (1, players[2].pk, ""),
        (2, players[1].pk, ""),
        (3, players[0].pk, ""),
        (4, None, "Гость Турнира"),
    ]
    page = logged_in.get(response["Location"]).content.decode()
    assert "4 results imported from results.csv" in page
    assert f"tournament_import:{tournament.pk}" not in logged_in.session


def test_clean_xlsx_for_mahjong_is_saved(logged_in, owner, players):
    tournament = TournamentFactory(
        discipline=Discipline.MAHJONG,
        status=TournamentStatus.DRAFT,
        organiser=owner,
        hanchans=8,
        participants=5,
        k=None,
    )
    upload = _xlsx(
        [
            ["Place", "Player", "Hanchans", "Substitute"],
            [1, "Ivanov Ivan", 8, None],
            [],
            [2, "Смирнова Анна", 8.0, "нет"],
            [2, "Petrov Petr", 4, "yes"],
        ]
    )
    response = _preview(logged_in, tournament, upload)
    assert _problems(response) == []
    assert [row.row for row in response.context["report"].rows] == [2, 4, 5]
    response = _confirm(logged_in, tournament, response.context["sha256"])
    assert response.status_code == 302
    saved = list(
        tournament.results.order_by("place", "player__last_name").values_list(
            "place", "player_id", "hanchans_played", "substitute"
        )
    )
    assert saved == [
        (1, players[0].pk, 8, False),
        (2, players[2].pk, 4, True),
        (2, players[1].pk, 8, False),
    ]


def test_comma_separated_csv_with_ema_id(logged_in, tournament, players):
    players[0].ema_id = "10990001"
    players[0].save()
    text = f"place,ema_id,player_id\n1,10990001,\n2,,{players[1].pk}\n"
    response = _preview(logged_in, tournament, _csv(text))
    assert _problems(response) == []
    assert [row.player for row in response.context["report"].rows] == players[:2]


def test_the_preview_is_in_russian_by_default_and_in_english_under_en(logged_in, tournament):
    russian = logged_in.get(_url(tournament, language="")).content.decode()
    assert '<html lang="ru"' in russian
    assert "Начало" in russian
    assert "Импорт результатов" in russian
    assert "place;player_id" in russian
    english = logged_in.get(_url(tournament)).content.decode()
    assert '<html lang="en"' in english
    assert "Import results" in english
    assert "Home" in english
    assert "Nothing is saved until you have seen the preview" in english


def test_the_change_form_links_to_the_import_only_when_the_user_may_change(logged_in, owner, tournament):
    import_url = f"/admin/tournaments/tournament/{tournament.pk}/import/"
    assert import_url in logged_in.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    approved = TournamentFactory(organiser=owner, status=TournamentStatus.APPROVED)
    page = logged_in.get(f"/admin/tournaments/tournament/{approved.pk}/change/").content.decode()
    assert f"/admin/tournaments/tournament/{approved.pk}/import/" not in page
    assert "/import/" not in logged_in.get("/admin/tournaments/tournament/add/").content.decode()


def test_the_example_file_is_offered(logged_in, tournament):
    response = logged_in.get(_url(tournament) + "?example=cards")
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.decode("utf-8-sig").startswith("place;player_id")


# Each kind of bad input: named by row and field, nothing saved -----------------------------------------------------


def test_missing_column(logged_in, tournament, players, existing):
    response = _preview(logged_in, tournament, _csv("surname;name\nИванов;Иван\n"))
    _assert_refused(response, "Row 1, place: the column «place» (место) is missing.")
    assert list(Result.objects.all()) == [existing]


def test_missing_player_columns(logged_in, tournament, existing):
    response = _preview(logged_in, tournament, _csv("place;club\n1;Север\n"))
    _assert_refused(response, "Row 1, player: no column names the players")
    assert list(Result.objects.all()) == [existing]


def test_place_larger_than_the_number_of_participants(logged_in, tournament, players, existing):
    text = f"place;player_id\n1;{players[0].pk}\n2;{players[1].pk}\n7;{players[2].pk}\n"
    response = _preview(logged_in, tournament, _csv(text))
    _assert_refused(response, "Row 4, place: 7 is larger than the number of participants (3).")
    assert list(Result.objects.all()) == [existing]


def test_mahjong_place_may_reach_the_tournaments_participants(logged_in, owner, players):
    tournament = TournamentFactory(
        discipline=Discipline.MAHJONG, status=TournamentStatus.DRAFT, organiser=owner, hanchans=8, participants=5
    )
    ok = _preview(logged_in, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n5;{players[1].pk}\n"))
    assert _problems(ok) == []
    bad = _preview(logged_in, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n6;{players[1].pk}\n"))
    _assert_refused(bad, "Row 3, place: 6 is larger than the number of participants (5).")


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("1;{a};Петров;Пётр\n", "Row 2, surname: id {a} is Иванов Иван, but the name says Петров Пётр"),
        ("1;;Иванов Иван, Петров Пётр;\n", "Row 2, surname: «Иванов Иван, Петров Пётр» looks like two people"),
        ("1;;Иванов и Петров;\n", "Row 2, surname: «Иванов и Петров» looks like two people"),
        ("1;{a}, {b};;\n", "Row 2, player id: «{a}, {b}» looks like two ids"),
    ],
)
def test_two_players_on_one_line(logged_in, tournament, players, existing, rows, expected):
    ids = {"a": players[0].pk, "b": players[1].pk}
    response = _preview(logged_in, tournament, _csv("place;player_id;surname;name\n" + rows.format(**ids)))
    _assert_refused(response, expected.format(**ids))
    assert list(Result.objects.all()) == [existing]


def test_a_player_and_a_participant_on_one_line(logged_in, tournament, players, existing):
    text = f"place;player_id;participant\n1;{players[0].pk};Гость\n"
    response = _preview(logged_in, tournament, _csv(text))
    _assert_refused(response, "Row 2, participant without a profile: the line names a player and also a participant")


def test_an_unquoted_comma_shifts_the_row(logged_in, tournament, players):
    response = _preview(logged_in, tournament, _csv("place,player\n1,Иванов Иван,Петров Пётр\n"))
    _assert_refused(response, "Row 2, player: the row has 3 cells but the header only 2")


def test_duplicate_player(logged_in, tournament, players, existing):
    text = f"place;player_id;surname;name\n1;{players[0].pk};;\n2;;Смирнова;Анна\n3;;Ivanov;Ivan\n"
    response = _preview(logged_in, tournament, _csv(text))
    _assert_refused(
        response, f"Row 4, surname: Иванов Иван (id {players[0].pk}) is already in row 2: the same player twice."
    )
    assert list(Result.objects.all()) == [existing]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("abc;{a};\n", "Row 2, place: «abc» is not a number."),
        ("1.5;{a};\n", "Row 2, place: 1.5 is not a whole number."),
        ("0;{a};\n", "Row 2, place: 0 is below 1."),
        ("1;x{a};\n", "Row 2, player id: «x{a}» is not a number."),
        ("1;{a};many\n", "Row 2, hanchans played: «many» is not a number."),
    ],
)
def test_non_number(logged_in, tournament, players, existing, rows, expected):
    ids = {"a": players[0].pk}
    response = _preview(logged_in, tournament, _csv("place;player_id;hanchans\n" + rows.format(**ids)))
    _assert_refused(response, expected.format(**ids))
    assert list(Result.objects.all()) == [existing]


def test_unknown_player(logged_in, tournament, players, existing):
    text = "place;player_id;surname;name\n1;999999;;\n2;;Сидоров;Семён\n"
    response = _preview(logged_in, tournament, _csv(text))
    _assert_refused(
        response,
        "Row 2, player id: no player with id 999999.",
        "Row 3, surname: no player named «Сидоров Семён»",
    )
    assert list(Result.objects.all()) == [existing]


def test_an_id_beyond_any_database_id_is_nobody(logged_in, tournament, players, existing):
    """2**63 does not fit the id column (an OverflowError on SQLite once): the row names it as no player."""
    response = _preview(logged_in, tournament, _csv("place;player_id\n1;9223372036854775808\n"))
    _assert_refused(response, "Row 2, player id: no player with id 9223372036854775808.")
    assert list(Result.objects.all()) == [existing]


def test_ambiguous_name_names_the_candidates(logged_in, tournament, players):
    namesake = PlayerFactory(last_name="Иванов", first_name="Иван", last_name_latin="Ivanov", first_name_latin="Ivan")
    response = _preview(logged_in, tournament, _csv("place;player\n1;Иванов Иван\n"))
    _assert_refused(
        response,
        f"Row 2, player: «Иванов Иван» matches several players (ids {players[0].pk}, {namesake.pk})",
    )


def test_end_date_before_start_in_the_file(logged_in, tournament, players, existing):
    text = f"place;player_id;start_date;end_date\n1;{players[0].pk};07.03.2026;2026-03-06\n"
    response = _preview(logged_in, tournament, _csv(text))
    _assert_refused(response, "Row 2, end date: the end date 2026-03-06 is before the start date 2026-03-07.")
    assert list(Result.objects.all()) == [existing]


def test_file_dates_must_match_the_tournament(logged_in, tournament, players):
    text = f"place;player_id;end_date\n1;{players[0].pk};2026-03-09\n"
    response = _preview(logged_in, tournament, _csv(text))
    _assert_refused(response, "Row 2, end date: the file says 2026-03-09 but the tournament says 2026-03-07")


def test_end_date_before_start_of_the_tournament_itself(players):
    # The database refuses such a tournament, so this is the check on one being edited (not yet saved).
    tournament = TournamentFactory.build(start_date=datetime.date(2026, 3, 7), end_date=datetime.date(2026, 3, 1))
    report = results_parse(
        tournament=tournament, content=f"place;player_id\n1;{players[0].pk}\n".encode(), filename="r.csv"
    )
    assert [str(problem) for problem in report.problems] == [
        "End date: the tournament ends (2026-03-01) before it starts (2026-03-07); "
        "correct the tournament's dates first."
    ]


def test_card_games_places_are_distinct_and_without_gaps(logged_in, tournament, players):
    text = f"place;player_id\n1;{players[0].pk}\n1;{players[1].pk}\n3;{players[2].pk}\n"
    response = _preview(logged_in, tournament, _csv(text))
    _assert_refused(response, "Row 3, place: place 1 is also in row 2", "Place: places have gaps: missing 2.")


def test_mahjong_hanchans_played_above_the_tournaments(logged_in, owner, players):
    tournament = TournamentFactory(
        discipline=Discipline.MAHJONG, status=TournamentStatus.DRAFT, organiser=owner, hanchans=6
    )
    response = _preview(logged_in, tournament, _csv(f"place;player_id;hanchans\n1;{players[0].pk};7\n"))
    _assert_refused(response, "Row 2, hanchans played: 7 is more than the tournament's 6 hanchans.")


def test_every_bad_row_is_listed_at_once(logged_in, tournament, players):
    text = f"place;player_id\nx;{players[0].pk}\n2;999999\n3;{players[0].pk}\n"
    response = _preview(logged_in, tournament, _csv(text))
    _assert_refused(response, "Row 2, place", "Row 3, player id", "Row 4, player id")


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("r.csv", b"", "file is empty"),
        ("r.csv", bytes(range(256)) * 4, "not a CSV text file"),
        ("r.csv", "место;игрок\n1;Иванов Иван\n".encode("cp1251"), "not in UTF-8"),
        ("r.txt", b"place;player_id\n1;1\n", "Only .csv and .xlsx files"),
        ("r.xls", b"\xd0\xcf\x11\xe0", "Only .csv and .xlsx files"),
        ("r.xlsx", b"PK\x03\x04garbage", "not an XLSX workbook"),
        ("r.xlsx", b"place;player_id\n", "not an XLSX workbook"),
        ("r.csv", b"\n\n  \n", "The file has no rows."),
    ],
)
def test_unreadable_files_get_a_message_not_an_error(logged_in, tournament, existing, name, content, expected):
    response = _preview(logged_in, tournament, SimpleUploadedFile(name, content))
    assert response.status_code == 200
    assert expected in " ".join(response.context["form"].errors["file"])
    assert "report" not in response.context
    assert list(Result.objects.all()) == [existing]


def test_xlsx_without_a_sheet_or_with_a_damaged_one(logged_in, tournament):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook><sheets/></workbook>")
    response = _preview(logged_in, tournament, SimpleUploadedFile("r.xlsx", buffer.getvalue()))
    assert response.status_code == 200
    assert response.context["form"].errors["file"]


def test_a_header_only_file(logged_in, tournament):
    response = _preview(logged_in, tournament, _csv("place;player_id\n"))
    _assert_refused(response, "Row 1, place: the file has no result rows.")


def test_a_file_above_the_size_limit_is_refused(logged_in, tournament, settings):
    settings.RESULT_IMPORT_MAX_BYTES = 10
    response = _preview(logged_in, tournament, _csv("place;player_id\n1;1\n"))
    assert "the limit is" in " ".join(response.context["form"].errors["file"])


# Confirmation trusts only the server's copy ---------------------------------------------------------------------------


def test_a_tampered_hash_is_refused(logged_in, tournament, players, existing):
    response = _preview(logged_in, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n"))
    forged = hashlib.sha256(b"place;player_id\n1;999999\n").hexdigest()
    assert forged != response.context["sha256"]
    response = _confirm(logged_in, tournament, forged)
    assert response.status_code == 302
    page = logged_in.get(response["Location"]).content.decode()
    assert "not the one last uploaded" in page
    assert list(Result.objects.all()) == [existing]


def test_confirming_the_same_import_in_a_second_tab_says_it_was_imported_already(logged_in, tournament, players):
    """Issue 27: the organiser previews a file in two tabs and confirms in both; the second said "The file on the page
    is not the one last uploaded here" although it was, and had just been imported. Now it says so, and imports
    nothing twice."""
    text = f"place;player_id\n1;{players[0].pk}\n2;{players[1].pk}\n"
    first = _preview(logged_in, tournament, _csv(text)).context["sha256"]
    second = _preview(logged_in, tournament, _csv(text)).context["sha256"]  # the other tab, the same file
    assert first == second
    assert _confirm(logged_in, tournament, first).status_code == 302
    response = _confirm(logged_in, tournament, second)
    assert response.status_code == 302
    page = logged_in.get(response["Location"]).content.decode()
    assert "This file was already imported (2 results imported" in page
    assert "not the one last uploaded" not in page
    assert Result.objects.filter(tournament=tournament).count() == 2


def test_confirming_an_earlier_upload_after_a_new_one_is_refused(logged_in, tournament, players, existing):
    clean = _preview(logged_in, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n"))
    _preview(logged_in, tournament, _csv("place;player_id\n1;999999\n"))
    response = _confirm(logged_in, tournament, clean.context["sha256"])
    assert response.status_code == 302
    assert list(Result.objects.all()) == [existing]


def test_confirming_without_an_upload_is_refused(logged_in, tournament, existing):
    response = _confirm(logged_in, tournament, hashlib.sha256(b"").hexdigest())
    assert response.status_code == 302
    assert list(Result.objects.all()) == [existing]


def test_the_file_is_checked_again_on_confirmation(logged_in, tournament, players, existing):
    response = _preview(logged_in, tournament, _csv("place;surname;name\n1;Петров;Пётр\n"))
    assert _problems(response) == []
    players[2].last_name, players[2].last_name_latin = "Петровский", "Petrovsky"
    players[2].save()
    response = _confirm(logged_in, tournament, response.context["sha256"])
    assert response.status_code == 200
    _assert_refused(response, "Row 2, surname: no player named «Петров Пётр»")
    assert list(Result.objects.all()) == [existing]


# Who may import -----------------------------------------------------------------------------------------------------


def test_an_organiser_cannot_import_into_another_organisers_tournament(client, tournament, players):
    client.force_login(organiser())
    assert client.get(_url(tournament)).status_code in (403, 404)
    response = _preview(client, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n"))
    assert response.status_code in (403, 404)
    assert not Result.objects.exists()


def test_nobody_imports_into_an_approved_tournament(logged_in, owner, players):
    tournament = TournamentFactory(organiser=owner, status=TournamentStatus.APPROVED)
    response = _preview(logged_in, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n"))
    content = response.content.decode()
    assert "ask federation staff to return it to draft first" in content
    assert "report" not in response.context
    assert not Result.objects.exists()


def test_approval_between_preview_and_confirmation_is_refused_by_the_service(logged_in, tournament, players):
    response = _preview(logged_in, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n"))
    tournament.status = TournamentStatus.APPROVED
    tournament.save()
    response = _confirm(logged_in, tournament, response.context["sha256"])
    page = logged_in.get(response["Location"]).content.decode()
    assert "The tournament is approved; ask federation staff to return it to draft first." in page
    assert not Result.objects.exists()


def test_federation_staff_import_into_any_draft(client, tournament, players):
    client.force_login(federation_staff())
    response = _preview(client, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n"))
    response = _confirm(client, tournament, response.context["sha256"])
    assert response.status_code == 302
    assert tournament.results.count() == 1


def test_a_bad_pk_is_404(logged_in):
    assert logged_in.get("/en/admin/tournaments/tournament/987654/import/").status_code == 404


def test_players_are_looked_up_in_one_query(tournament, django_assert_max_num_queries):
    players = [PlayerFactory() for _ in range(30)]
    lines = [f"{n};{p.last_name_latin};{p.first_name_latin}" for n, p in enumerate(players, start=1)]
    content = ("place;surname;name\n" + "\n".join(lines)).encode()
    with django_assert_max_num_queries(1):
        report = results_parse(tournament=tournament, content=content, filename="r.csv")
    assert report.problems == []
    assert [row.player for row in report.rows] == players


def test_a_stored_file_changed_after_the_preview_is_refused(logged_in, tournament, players, existing):
    """The server hashes its own copy again on confirmation: bytes that no longer match the preview are not saved."""
    import base64

    response = _preview(logged_in, tournament, _csv(f"place;player_id\n1;{players[0].pk}\n"))
    session = logged_in.session
    stored = session[f"tournament_import:{tournament.pk}"]
    stored["content"] = base64.b64encode(f"place;player_id\n1;{players[1].pk}\n".encode()).decode()
    session[f"tournament_import:{tournament.pk}"] = stored
    session.save()
    response = _confirm(logged_in, tournament, response.context["sha256"])
    assert response.status_code == 302
    assert "The uploaded file was lost" in logged_in.get(response["Location"]).content.decode()
    assert list(Result.objects.all()) == [existing]
