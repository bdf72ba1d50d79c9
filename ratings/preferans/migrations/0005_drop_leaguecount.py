"""The leaderboard counts its leagues with an ordinary query (ratings.preferans.selectors.league_counts): the
``LeagueCount`` table goes, and so do the triggers and functions that kept it on PostgreSQL (migration 0003)."""

from django.db import migrations

DROP = """
DROP TRIGGER IF EXISTS preferans_league_count_bot ON federation_player;
DROP TRIGGER IF EXISTS preferans_league_count_truncate ON preferans_preferansrating;
DROP TRIGGER IF EXISTS preferans_league_count_update ON preferans_preferansrating;
DROP TRIGGER IF EXISTS preferans_league_count_insert_delete ON preferans_preferansrating;
DROP FUNCTION IF EXISTS preferans_league_count_player();
DROP FUNCTION IF EXISTS preferans_league_count_truncate();
DROP FUNCTION IF EXISTS preferans_league_count_rating();
DROP FUNCTION IF EXISTS preferans_league_count_person(bigint);
DROP FUNCTION IF EXISTS preferans_league_count_add(text, integer);
"""


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":  # SQLite never had them
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("preferans", "0004_game_owner")]

    operations = [
        migrations.RunPython(drop_triggers, migrations.RunPython.noop, elidable=True),
        migrations.DeleteModel(name="LeagueCount"),
    ]
