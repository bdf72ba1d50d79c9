"""The admin's history upload (``federation.uploads``): upload a document, preview what it holds and every error,
confirm, and follow the import as a job run."""

from __future__ import annotations

import hashlib
import json

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation import bounds
from federation.uploads import Checked, ImportFileError, UploadFlow
from ratings.engines.common import EngineError
from ratings.history import SYSTEMS, HistoryError, history_check
from ratings.models import HistoryUpload
from ratings.movein.labels import count_label

#: A history is bigger than a tournament's results; the upload is kept in the session until confirmed.
MAX_BYTES = bounds.HISTORY_UPLOAD_MAX_BYTES


class HistoryUploadFlow(UploadFlow):
    template_name = "admin/ratings/history_upload.html"
    session_key = "history_upload"
    title = gettext_lazy("Import a federation's history")
    file_label = gettext_lazy("History document")
    file_help = gettext_lazy(".json, the format of manage.py rate")
    extensions = (".json",)
    extension_error = gettext_lazy("Upload a .json document.")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.run = None

    def max_bytes(self) -> int:
        return MAX_BYTES

    def extra_context(self) -> dict:
        return {"systems": sorted(SYSTEMS)}

    def done_url(self) -> str:
        """The page of the import's run (``ratings.admin.job_url``'s address), which follows its progress."""
        if self.run is None:
            return reverse("admin:ratings_ratinglist_changelist")
        return reverse("admin:ratings_jobrun_change", args=[self.run.pk])

    def read(self, content: bytes, name: str, *, save: bool) -> Checked:
        try:
            doc = json.loads(content.decode("utf-8"))
        except UnicodeDecodeError:
            raise ImportFileError(_("The file is not UTF-8 text.")) from None
        except json.JSONDecodeError as error:
            raise ImportFileError(
                _("The file is not JSON (line %(line)s, column %(column)s).")
                % {"line": error.lineno, "column": error.colno}
            ) from None
        except RecursionError:
            raise ImportFileError(_("The file is nested too deeply.")) from None
        try:
            counts = history_check(doc=doc)
        except HistoryError as error:
            return Checked(context={"errors": error.lines()})
        except EngineError as error:
            return Checked(context={"errors": [str(error)]})
        labelled = [(count_label(kind), count) for kind, count in counts.items()]
        checked = Checked(context={"counts": labelled, "system": doc.get("system")}, clean=True)
        if save:
            from ratings.jobs import JobNotStarted, job_start

            upload = HistoryUpload.objects.create(
                system=doc["system"],
                name=name[:200],
                sha256=hashlib.sha256(content).hexdigest(),
                content=content.decode("utf-8"),
                uploaded_by=self.request.user,
            )
            try:
                self.run = job_start(kind="history_import", args=[upload.pk], user=self.request.user)
            except JobNotStarted as error:
                return Checked(refused=[str(error)])
            checked.saved = _("The import has started; its page shows how far it is.")
        return checked
