"""Issue 29: a mahjong list's older snapshots keep only the rows that changed (``ratings.mahjong.storage``).

Each older snapshot of a mahjong list loses the rows of players whose entry is the same as the list before it held
(rating, tournaments counted, parts A and B, the unrounded rating and the size of part A), gains a row with
``listed`` unticked for each player who left the list on its date, and every row keeps only those numbers of its
``details``: the per-tournament scores and the formula lines are recomputed when a person opens them. The newest
snapshot keeps every player with their explanations. Every list as of every date reads as before (``tests/ratings/mahjong/test_storage.py``).
The space freed is reused by PostgreSQL for new rows; ``VACUUM FULL`` gives it back to the disk
(``docs/operations.md``).
"""

from django.db import migrations

MAHJONG_ENGINES = ("mahjong-rr", "mahjong-crr", "mahjong-online")
KEPT = ("part_a", "part_b", "exact", "k")
BATCH = 2000


def _slim(details):
    return {key: details.get(key) for key in KEPT}


def _key(rating, events, details):
    return (int(rating * 100), events, *(details.get(key) for key in KEPT))


def forwards(apps, schema_editor):
    RatingList = apps.get_model("ratings", "RatingList")
    RatingSnapshot = apps.get_model("ratings", "RatingSnapshot")
    RatingEntry = apps.get_model("ratings", "RatingEntry")
    for list_id in RatingList.objects.filter(engine__in=MAHJONG_ENGINES).values_list("pk", flat=True):
        snapshots = list(
            RatingSnapshot.objects.filter(rating_list_id=list_id).order_by("as_of").values_list("pk", "as_of")
        )
        state, ever, month = {}, set(), None
        for index, (snapshot_id, as_of) in enumerate(snapshots):
            newest = index == len(snapshots) - 1
            # The first snapshot of each month stays whole: a row of everyone the list ever held (mahjong.storage).
            whole = not newest and (as_of.year, as_of.month) != month
            month = (as_of.year, as_of.month)
            rows = RatingEntry.objects.filter(snapshot_id=snapshot_id).values_list(
                "pk", "player_id", "rating", "events", "details"
            )
            now, gone, slimmed = {}, [], []
            for pk, player_id, rating, events, details in rows.iterator(chunk_size=BATCH):
                details = details or {}
                key = now[player_id] = _key(rating, events, details)
                if not newest and not whole and state.get(player_id) == key:
                    gone.append(pk)
                elif newest:  # keeps its explanations, but the rank of the date before (now worked out on reading)
                    slimmed.append(
                        RatingEntry(pk=pk, details={k: v for k, v in details.items() if k != "previous_rank"})
                    )
                else:
                    slimmed.append(RatingEntry(pk=pk, details=_slim(details)))
            for start in range(0, len(gone), BATCH):
                RatingEntry.objects.filter(pk__in=gone[start : start + BATCH]).delete()
            RatingEntry.objects.bulk_update(slimmed, ["details"], batch_size=BATCH)
            if not newest:
                RatingEntry.objects.bulk_create(
                    [
                        RatingEntry(
                            snapshot_id=snapshot_id,
                            player_id=player_id,
                            rank=0,
                            rating=0,
                            events=0,
                            details={},
                            listed=False,
                        )
                        for player_id in sorted((ever if whole else state.keys()) - now.keys())
                    ],
                    batch_size=BATCH,
                )
            if whole:
                snapshot = RatingSnapshot.objects.get(pk=snapshot_id)
                snapshot.summary = {**(snapshot.summary or {}), "whole": True}
                snapshot.save(update_fields=["summary"])
            ever |= now.keys()
            state = now


class Migration(migrations.Migration):
    dependencies = [("ratings", "0008_entry_listed")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False)]
