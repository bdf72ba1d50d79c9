"""The history import as a Celery task, recorded as a ``JobRun`` (the upload's id is its only argument)."""

import json

from celery import shared_task

from ratings.history import history_import
from ratings.jobs import job_execute
from ratings.models import HistoryUpload


@shared_task(bind=True, name="ratings.history_import")
def history_import_task(self, upload_id: int) -> dict:
    upload = HistoryUpload.objects.select_related("uploaded_by").get(pk=upload_id)
    return job_execute(
        self,
        kind="history_import",
        args=[upload_id],
        call=lambda progress: history_import(
            doc=json.loads(upload.content),
            list_slug=upload.list_slug or None,
            user=upload.uploaded_by,
            progress=progress,
        ).as_dict(),
    )
