"""One admin flow for every file import: upload, preview, confirm (a tournament's results, preferans deals).

The preview saves nothing. The uploaded bytes stay on the server (in the session, base64) and the page posts back
only their SHA-256. On confirmation the server checks that the posted hash is the one it stored, hashes the stored
bytes again (a session damaged or tampered with is refused, not imported), reads and checks its own copy once more
(players or the tournament may have changed since the preview), and only then saves, all or nothing. A file this
session imported on the page already is said to be so when it is confirmed again (from a second tab), and not
imported twice.

An import says how to read its file and what saving means (an ``UploadFlow`` subclass with ``read``); its template
extends ``admin/upload.html`` with its preview and its format help.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import zipfile
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.defaultfilters import filesizeformat
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from federation import bounds
from ratings.engines.common import FieldError


def xlsx_measure(content: bytes) -> None:
    """Refuse a workbook whose parts would unpack beyond ``federation.bounds`` before anything parses it.

    An .xlsx is a zip; the size check of the upload sees only the compressed bytes (a 206 KB workbook held a 200 MB
    string). The zip's directory gives each part's uncompressed size, and Python's ``zipfile`` (which openpyxl reads
    through) never unpacks more than that size (a part that would is refused as damaged), so these numbers bound
    what parsing can take.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise ImportFileError(_("The XLSX workbook cannot be read; it may be damaged.")) from error
    if len(parts) > bounds.XLSX_MAX_PARTS:
        raise ImportFileError(
            _("The workbook has %(count)s parts; a workbook of results has far fewer.") % {"count": len(parts)}
        )
    total = sum(part.file_size for part in parts)
    swollen = any(
        part.file_size > 1024 * 1024 and part.file_size > bounds.XLSX_MAX_RATIO * max(part.compress_size, 1)
        for part in parts
    )
    if total > bounds.XLSX_MAX_UNCOMPRESSED_BYTES or swollen:
        raise ImportFileError(
            _("The workbook unpacks to %(size)s; the limit is %(limit)s. Save only the results sheet, or as CSV.")
            % {"size": filesizeformat(total), "limit": filesizeformat(bounds.XLSX_MAX_UNCOMPRESSED_BYTES)}
        )


#: Files this session imported on one page, remembered by their digest: confirming one again (a second tab, the back
#: button) says it was imported already instead of "not the one last uploaded".
IMPORTED_KEPT = 5


class ImportFileError(FieldError):
    """The file cannot be read as an import at all (not UTF-8, not a table, no header): the message says why, for the
    person who uploaded it. Errors of single rows are listed with the preview instead."""

    def __init__(self, message: str) -> None:
        super().__init__("file", message)


@dataclass
class Checked:
    """One reading of the file: what the page shows, whether it can be saved, and after saving what was saved.

    ``refused``: messages of a refusal that is not the file's fault (the tournament was approved meanwhile); the page
    shows them after a redirect, and the file stays ready for another try.
    """

    context: dict[str, Any] = field(default_factory=dict)
    clean: bool = False
    saved: str = ""
    refused: list[str] = field(default_factory=list)


class UploadForm(forms.Form):
    file = forms.FileField()

    def __init__(self, *args, flow: UploadFlow, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.flow = flow
        self.fields["file"].label = flow.file_label
        self.fields["file"].help_text = flow.file_help
        if flow.extensions:
            self.fields["file"].widget.attrs["accept"] = ",".join(flow.extensions)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = self.flow.max_bytes()
        if upload.size > limit:
            raise ValidationError(
                _("The file is %(size)s; the limit is %(limit)s.")
                % {"size": filesizeformat(upload.size), "limit": filesizeformat(limit)}
            )
        if self.flow.extensions and not upload.name.lower().endswith(self.flow.extensions):
            raise ValidationError(self.flow.extension_error)
        return upload


class UploadFlow(ABC):
    """The upload, preview and confirm steps of one admin page; a subclass reads its files (``read``)."""

    template_name = "admin/upload.html"
    #: The session key of the stored file; a flow per object adds the object's id.
    session_key = "upload"
    title = ""
    file_label = ""
    file_help = ""
    #: Allowed endings of the file's name, lower case (empty: any), and the message refusing another.
    extensions: tuple[str, ...] = ()
    extension_error = ""

    def __init__(self, *, model_admin, request: HttpRequest, original=None) -> None:
        self.model_admin = model_admin
        self.request = request
        self.original = original

    # --- what an import says -----------------------------------------------------------------------------------

    @abstractmethod
    def read(self, content: bytes, name: str, *, save: bool) -> Checked:
        """Read and check the file; with ``save``, save it if it is clean (``Checked.saved`` says what was saved).

        Raises ``ImportFileError`` when the file cannot be read at all.
        """

    def max_bytes(self) -> int:
        return 2 * 1024 * 1024

    def refusal(self) -> str:
        """Why nothing can be imported on this page now (shown instead of the upload form), or empty."""
        return ""

    def page_url(self) -> str:
        return self.request.path

    def done_url(self) -> str:
        return self.request.path

    def extra_context(self) -> dict[str, Any]:
        return {}

    # --- the three steps ---------------------------------------------------------------------------------------

    def response(self) -> HttpResponse:
        request = self.request
        context = {
            **self.model_admin.admin_site.each_context(request),
            "title": self.title,
            "opts": self.model_admin.model._meta,
            "original": self.original,
            "max_bytes": self.max_bytes(),
            "refused": self.refusal(),
            "form": UploadForm(flow=self),
            **self.extra_context(),
        }
        if request.method != "POST":
            return self._render(context)
        if "confirm" in request.POST:
            return self._confirm(context)
        if context["refused"]:
            return self._render(context)
        # A new upload replaces the stored one, whatever comes of it: only the last file uploaded can be confirmed.
        request.session.pop(self.session_key, None)
        form = UploadForm(request.POST, request.FILES, flow=self)
        context["form"] = form
        if not form.is_valid():
            return self._render(context)
        upload = form.cleaned_data["file"]
        content = upload.read()
        try:
            checked = self.read(content, upload.name, save=False)
        except ImportFileError as error:
            form.add_error("file", error.message)
            return self._render(context)
        context.update(checked.context, filename=upload.name)
        if checked.clean:
            sha256 = _digest(content)
            request.session[self.session_key] = {
                "name": upload.name,
                "sha256": sha256,
                "content": base64.b64encode(content).decode("ascii"),
            }
            context["sha256"] = sha256
        return self._render(context)

    def _confirm(self, context: dict[str, Any]) -> HttpResponse:
        """Save the server's own copy, after checking it again; the browser only says which upload it saw."""
        request = self.request
        stored = request.session.get(self.session_key)
        posted = request.POST.get("sha256", "")
        if not isinstance(stored, dict) or not hmac.compare_digest(str(stored.get("sha256", "")), posted):
            done = self._imported(posted)
            if done is not None:  # confirmed already, in another tab: say so, and import nothing twice
                self.model_admin.message_user(
                    request,
                    _("This file was already imported (%(saved)s); nothing was imported again.") % {"saved": done},
                    messages.WARNING,
                )
                return redirect(self.done_url())
            self.model_admin.message_user(
                request, _("The file on the page is not the one last uploaded here; upload it again."), messages.ERROR
            )
            return redirect(self.page_url())
        try:
            content = base64.b64decode(stored["content"], validate=True)
        except (KeyError, ValueError, TypeError):
            content = None
        if content is None or _digest(content) != stored["sha256"]:
            del request.session[self.session_key]
            self.model_admin.message_user(request, _("The uploaded file was lost; upload it again."), messages.ERROR)
            return redirect(self.page_url())
        name = stored.get("name", "")
        try:
            checked = self.read(content, name, save=True)
        except ImportFileError as error:
            context["form"].add_error("file", error.message)
            return self._render(context)
        if checked.refused:
            for message in checked.refused:
                self.model_admin.message_user(request, message, messages.ERROR)
            return redirect(self.page_url())
        if not checked.saved:
            context.update(checked.context, filename=name, changed_since_preview=True)
            return self._render(context)
        del request.session[self.session_key]
        imported = [item for item in request.session.get(self._imported_key, []) if isinstance(item, list)]
        request.session[self._imported_key] = [*imported[-(IMPORTED_KEPT - 1) :], [stored["sha256"], checked.saved]]
        self.model_admin.message_user(request, checked.saved, messages.SUCCESS)
        return redirect(self.done_url())

    @property
    def _imported_key(self) -> str:
        return f"{self.session_key}:imported"

    def _imported(self, sha256: str) -> str | None:
        """What the import of the file with this digest saved, if this session confirmed it here already."""
        for item in self.request.session.get(self._imported_key, []):
            if isinstance(item, list) and len(item) == 2 and sha256 and hmac.compare_digest(str(item[0]), sha256):
                return str(item[1])
        return None

    def _render(self, context: dict[str, Any]) -> HttpResponse:
        return TemplateResponse(self.request, self.template_name, context)


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()
