"""Go: self-handicap tournaments run round by round (rules/go.md); the DIRS club rating is at go/dirs/."""

from django.urls import path

from . import views, views_entry, views_import, views_sheets

app_name = "go"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.tournament_create, name="tournament_create"),
    path("<int:pk>/", views.tournament_detail, name="tournament"),
    path("<int:pk>/register/", views.registration_add, name="registration_add"),
    path("<int:pk>/members.json", views.member_search, name="member_search"),
    path("<int:pk>/registrations/<int:reg_id>/withdraw/", views.registration_withdraw, name="registration_withdraw"),
    path("<int:pk>/absence/", views.absence_set, name="absence_set"),
    path("<int:pk>/pair/", views.round_pair, name="round_pair"),
    path("<int:pk>/rounds/<int:number>/", views.round_detail, name="round"),
    path("<int:pk>/rounds/<int:number>/edit/", views.round_edit, name="round_edit"),
    path("<int:pk>/rounds/<int:number>/result/", views.result_enter, name="result_enter"),
    path("<int:pk>/rounds/<int:number>/correct/", views.result_correct, name="result_correct"),
    path("<int:pk>/standings/", views.standings, name="standings"),
    path("<int:pk>/players/<int:reg_id>/", views.player_games, name="player_games"),
    path("<int:pk>/egd.h9", views.egd_export, name="egd_export"),
    path("<int:pk>/egd-class/", views.egd_class_set, name="egd_class_set"),
    path("<int:pk>/log/", views.director_log, name="log"),
    path("<int:pk>/crosstable/", views_sheets.crosstable, name="crosstable"),
    path("<int:pk>/print/standings/", views_sheets.standings_sheet, name="print_standings"),
    path("<int:pk>/rounds/<int:number>/print/boards/", views_sheets.boards_sheet, name="print_boards"),
    path("<int:pk>/rounds/<int:number>/print/players/", views_sheets.players_sheet, name="print_players"),
    path("<int:pk>/rounds/<int:number>/print/slips/", views_sheets.slips_sheet, name="print_slips"),
    path("<int:pk>/rounds/<int:number>/enter/", views_entry.entry_page, name="entry"),
    path("<int:pk>/rounds/<int:number>/result.json", views_entry.entry_json, name="entry_json"),
    path("<int:pk>/import/", views_import.players_import, name="players_import"),
    path("import-history/", views_import.history_import, name="history_import"),
    path("<int:pk>/backup.json", views_import.backup_download, name="backup"),
    path("restore/", views_import.backup_restore, name="backup_restore"),
    path("calculator/", views.calculator_page, name="calculator"),
    path("calculator.json", views.calculator_json, name="calculator_json"),
]
