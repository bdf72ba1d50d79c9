"""Downloads that open correctly in a spreadsheet in either language, and never run a formula (issues 13 and 16)."""

import csv
import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from federation.exports import csv_bytes, neutralise, xlsx_bytes
from tests.factories import PlayerFactory, ResultFactory, TournamentFactory

pytestmark = pytest.mark.django_db

HOSTILE = ['=HYPERLINK("http://evil")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_cell_a_spreadsheet_would_run_is_made_inert(text):
    assert neutralise(text) == "'" + text
    assert neutralise("Иванов") == "Иванов"
    assert neutralise("") == ""


def test_csv_in_russian_has_a_bom_semicolons_and_a_decimal_comma():
    rows = [["Игрок", "Рейтинг", "Изменение"], ["=cmd|' /C calc'!A0", Decimal("1081.02"), Decimal("-4.67")]]
    content = csv_bytes(rows, language="ru")
    assert content.startswith(b"\xef\xbb\xbf")
    text = content.decode("utf-8-sig")
    assert text.splitlines() == ["Игрок;Рейтинг;Изменение", "'=cmd|' /C calc'!A0;1081,02;-4,67"]
    english = csv_bytes(rows, language="en").decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(english)))[1] == ["'=cmd|' /C calc'!A0", "1081.02", "-4.67"]


def test_xlsx_keeps_numbers_as_numbers_and_formulas_as_text():
    rows = [["Player", "Rating"], *[[text, Decimal("12.5")] for text in HOSTILE]]
    sheet = load_workbook(io.BytesIO(xlsx_bytes(rows))).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0] == ("Player", "Rating")
    for (text, number), original in zip(values[1:], HOSTILE, strict=True):
        assert text == original.replace("\r", "\n")  # XML keeps no bare carriage return
        assert number == 12.5
    for row in sheet.iter_rows(min_row=2):
        assert row[0].data_type == "s"  # a string, never a formula ("f")


def test_results_show_the_stored_name_of_a_participant_without_a_profile(client):
    tournament = TournamentFactory(name="Кубок")
    member = PlayerFactory(last_name="Петров", first_name="Пётр")
    ResultFactory(tournament=tournament, player=member, place=1)
    ResultFactory(tournament=tournament, player=None, participant_name="Гость Иван", place=2)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Гость Иван" in page
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/tournaments/{tournament.pk}/?_export=csv").content.decode("utf-8-sig")),
            delimiter=";",
        )
    )
    assert rows[0][:3] == ["Место", "ID игрока", "Игрок"]
    assert rows[1][:3] == ["1", str(member.pk), "Петров Пётр"]
    assert rows[2][:3] == ["2", "", "Гость Иван"]


def test_every_list_downloads_as_xlsx_with_the_player_id(client):
    tournament = TournamentFactory()
    player = PlayerFactory(last_name="=Формулов", first_name="Ф")
    ResultFactory(tournament=tournament, player=player, place=1)
    response = client.get("/en/players/", {"_export": "xlsx"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert 'filename="players.xlsx"' in response["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:2] == ("Player id", "Player")
    assert rows[1][0] == player.pk
    assert sheet.cell(row=2, column=2).data_type == "s"
    # A typo in the format is the page, not an error.
    assert client.get("/en/players/", {"_export": "pdf"}).status_code == 200
