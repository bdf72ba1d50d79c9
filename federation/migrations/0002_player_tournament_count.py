from django.db import migrations, models
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_tournaments(apps, schema_editor):
    Player = apps.get_model("federation", "Player")
    Result = apps.get_model("tournaments", "Result")
    counted = (
        Result.objects.filter(player=OuterRef("pk"), tournament__status="approved")
        .order_by()
        .values("player")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Player.objects.update(tournament_count=Coalesce(Subquery(counted, output_field=IntegerField()), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0001_initial"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="tournament_count",
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name="tournaments"),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["-tournament_count", "last_name", "first_name"], name="player_count_idx"),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["search_name", "id"], name="player_alphabet_idx"),
        ),
        migrations.RunPython(count_tournaments, migrations.RunPython.noop),
    ]
