"""The record of changes by hand kept so far on the rounds goes into the director's record; boards paired by hand
above 9 stones are played on 9 (`rules/go.md`: no game on more than 9 stones); the EGD class nobody chose is unset."""

import datetime

from django.conf import settings
from django.db import migrations


def forwards(apps, schema_editor):
    Round = apps.get_model("go", "Round")
    Board = apps.get_model("go", "Board")
    GoTournament = apps.get_model("go", "GoTournament")
    DirectorLog = apps.get_model("go", "DirectorLog")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    users = dict(User.objects.values_list("username", "pk"))
    entries = []
    for rnd in Round.objects.exclude(overrides=[]).order_by("tournament_id", "number"):
        for item in rnd.overrides or []:
            try:
                at = datetime.datetime.fromisoformat(item.get("at", ""))
            except ValueError:
                at = rnd.paired_at
            entries.append(
                DirectorLog(
                    tournament_id=rnd.tournament_id,
                    round_number=rnd.number,
                    at=at,
                    user_id=users.get(item.get("by") or ""),
                    username=item.get("by") or "",
                    action=item.get("action", "")[:20],
                    text_en=item.get("en", ""),
                    text_ru=item.get("ru", ""),
                )
            )
    DirectorLog.objects.bulk_create(entries)
    for board in Board.objects.filter(handicap__gt=9).select_related("round__tournament__tournament"):
        go = board.round.tournament
        half_stone = go.tournament.half_stone or go.tournament.go_system == "dirs"
        board.handicap = 9
        board.komi_kind = "reverse" if half_stone else "none"
        board.komi = go.komi_reverse if half_stone else go.komi_none
        board.save(update_fields=["handicap", "komi_kind", "komi"])
    GoTournament.objects.filter(egd_class="D").update(egd_class="")


class Migration(migrations.Migration):
    dependencies = [("go", "0002_director_record"), migrations.swappable_dependency(settings.AUTH_USER_MODEL)]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
