"""The public pages' versions now live in Django's cache (federation/versions.py): the counter row of bulk writes
goes, and so does the statement-level trigger ``federation_changed`` that every table of the project's apps had on
PostgreSQL (it notified a LISTEN/NOTIFY memo, and serialised committing transactions on the notification queue)."""

from django.db import migrations

DROP_TRIGGERS = """
DO $$
DECLARE
    found record;
BEGIN
    FOR found IN SELECT t.tgname, c.oid::regclass AS tab FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                 WHERE t.tgname = 'federation_changed' AND NOT t.tgisinternal LOOP
        EXECUTE format('DROP TRIGGER %I ON %s', found.tgname, found.tab);
    END LOOP;
END $$;
DROP FUNCTION IF EXISTS federation_changed();
"""


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":  # SQLite never had them
        schema_editor.execute(DROP_TRIGGERS, params=None)


class Migration(migrations.Migration):
    dependencies = [("federation", "0007_player_bot_index")]

    operations = [
        migrations.RunPython(drop_triggers, migrations.RunPython.noop, elidable=True),
        migrations.DeleteModel(name="PublicVersion"),
    ]
