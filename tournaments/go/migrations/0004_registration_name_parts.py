"""A registration keeps the surname and the given name apart (issue 27: EGD's table writes them as two fields).

Existing rows: a member's registration takes the parts from the member (Cyrillic and Latin); a typed name is split
where its surname ends: the first word with any particles before it (``Ван дер Берг Ян`` -> ``Ван дер Берг`` and
``Ян``), as ``tournaments.go.names.split_name`` splits it (copied here: a migration keeps the rule it ran with). The
full names (``name``, ``name_latin``) stay as they were.
"""

from django.db import migrations, models

PARTICLES = frozenset(
    "van der den de del della di da dos das du la le von ten ter zu ван дер ден де дель делла ди да дос дас дю ля ле "
    "фон тен тер цу".split()
)


def split_name(full):
    words = full.split()
    if not words:
        return "", ""
    k = 0
    while k < len(words) - 1 and words[k].lower() in PARTICLES:
        k += 1
    return " ".join(words[: k + 1])[:100], " ".join(words[k + 1 :])[:100]


def forwards(apps, schema_editor):
    Registration = apps.get_model("go", "Registration")
    Player = apps.get_model("federation", "Player")
    members = {
        p.pk: p
        for p in Player.objects.filter(
            pk__in=Registration.objects.exclude(player=None).values_list("player_id", flat=True)
        )
    }
    changed = []
    for reg in Registration.objects.all().iterator():
        member = members.get(reg.player_id)
        if member is not None:
            reg.surname, reg.given_name = member.last_name, member.first_name
            reg.surname_latin, reg.given_name_latin = member.last_name_latin, member.first_name_latin
        else:
            reg.surname, reg.given_name = split_name(reg.name)
            reg.surname_latin, reg.given_name_latin = split_name(reg.name_latin)
        changed.append(reg)
        if len(changed) >= 1000:
            Registration.objects.bulk_update(changed, ["surname", "given_name", "surname_latin", "given_name_latin"])
            changed = []
    Registration.objects.bulk_update(changed, ["surname", "given_name", "surname_latin", "given_name_latin"])


class Migration(migrations.Migration):
    dependencies = [
        ("go", "0003_director_record_data"),
        ("federation", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="given_name",
            field=models.CharField(blank=True, default="", max_length=100, verbose_name="given name"),
        ),
        migrations.AddField(
            model_name="registration",
            name="given_name_latin",
            field=models.CharField(blank=True, default="", max_length=100, verbose_name="given name (Latin)"),
        ),
        migrations.AddField(
            model_name="registration",
            name="surname",
            field=models.CharField(default="", max_length=100, verbose_name="surname"),
        ),
        migrations.AddField(
            model_name="registration",
            name="surname_latin",
            field=models.CharField(blank=True, default="", max_length=100, verbose_name="surname (Latin)"),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
