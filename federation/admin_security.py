"""The admin's doors, held the same way on every model: the audit history, published records, fields only staff set.

Every ``ModelAdmin`` of the site builds on these instead of on django-simple-history's or Django's bare classes, and
``tests/test_admin_permissions.py`` walks every admin address as every role to prove it.

- ``AuditedHistoryAdmin``: the change history (django-simple-history) is an audit record, read by federation staff
  only and never written through.
- ``PublishedRecordAdmin``: published rating lists (snapshots, their entries and changes, preferans deal results) are
  the federation's record: nobody adds, changes or deletes one in the admin, superusers included.
- ``StaffOnlyFieldsMixin``: fields an organiser sees read-only, and fields an organiser does not see at all.
- ``BoundedDatesMixin`` (in ``FederationModelAdmin`` and every inline): a date typed in any admin form lies within
  ``federation.bounds.DATE_MIN``..``DATE_MAX``; 9999-12-31 was accepted and later overflowed a week's arithmetic.
"""

from __future__ import annotations

import datetime as dt

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import Http404
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from simple_history.admin import SimpleHistoryAdmin

from federation.bounds import DATE_MAX, DATE_MIN

SAFE_METHODS = ("GET", "HEAD")
#: Reading the admin's record of who changed what (both histories): federation staff hold it (``federation.roles``).
AUDIT_PERMISSION = "admin.view_logentry"


def date_within_bounds(value: dt.date | dt.datetime | None) -> None:
    """A form's date (or the day of a date and time) between ``DATE_MIN`` and ``DATE_MAX``, or a message saying so."""
    if value is None:
        return
    day = value.date() if isinstance(value, dt.datetime) else value
    if not DATE_MIN <= day <= DATE_MAX:
        raise ValidationError(
            _("Enter a date between %(first)s and %(last)s.")
            % {"first": date_format(DATE_MIN, "SHORT_DATE_FORMAT"), "last": date_format(DATE_MAX, "SHORT_DATE_FORMAT")},
            code="date_out_of_bounds",
        )


class BoundedDatesMixin:
    """Every date and date-and-time field of the admin's forms checked by ``date_within_bounds``."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if field is not None and isinstance(db_field, models.DateField):  # DateTimeField is a DateField
            field.validators.append(date_within_bounds)
        return field


class FederationInline(BoundedDatesMixin, admin.TabularInline):
    """The base of the site's tabular inlines (dates within bounds, as on every admin form)."""


class FederationModelAdmin(BoundedDatesMixin, admin.ModelAdmin):
    """The base of every ModelAdmin of the site: Django's own "History" page (the admin log) is staff's only.

    Django shows it to anyone who may view the object; it names who changed what, so organisers do not read it.
    """

    def history_view(self, request, object_id, extra_context=None):
        if not request.user.has_perm(AUDIT_PERMISSION):
            raise PermissionDenied
        return super().history_view(request, object_id, extra_context=extra_context)


class AuditedHistoryAdmin(SimpleHistoryAdmin, FederationModelAdmin):
    """django-simple-history's history pages, read-only and for those who hold the history's view permission.

    simple_history (3.13) shows an object's history to anyone who may view the object, looks the object of a version
    up outside the admin's queryset (an organiser read another organiser's draft), and its version form saves on POST
    whether or not reverting is "disabled" (an organiser renamed another's tournament, or a player, through it). Here:

    - the history and each version are shown only for an object the admin's queryset holds for the user (404
      otherwise, as on the change page), and only to a user with ``AUDIT_PERMISSION``: federation staff;
    - nothing is saved from a version, by anyone: a POST to the version form is refused (403), and the page shows no
      "Revert" button. Decision where the rules are silent: a revert would write past the services' checks (K,
      status, counts, the staff-only fields); staff correct through the change page, and the history stays the
      record of what happened. A deleted object's history is not shown either (its change page is gone too).
    """

    def has_view_history_permission(self, request, obj=None) -> bool:
        return request.user.has_perm(AUDIT_PERMISSION)

    def has_change_history_permission(self, request, obj=None) -> bool:
        return False

    def has_view_history_or_change_history_permission(self, request, obj=None) -> bool:
        return self.has_view_history_permission(request, obj)

    def revert_disabled(self, request, obj=None) -> bool:
        return True

    def _history_object(self, request, object_id: str):
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            raise Http404
        if not self.has_view_history_permission(request, obj):
            raise PermissionDenied
        return obj

    def history_view(self, request, object_id, extra_context=None):
        self._history_object(request, object_id)
        return super().history_view(request, object_id, extra_context=extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        self._history_object(request, object_id)
        if request.method not in SAFE_METHODS:
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context=extra_context)


class PublishedRecordAdmin(FederationModelAdmin):
    """Read-only for everyone, superusers included: no add, change or delete page, no "delete selected" action.

    Deleting the newest Gorbunov snapshot left the list with only the players who moved that week, and the next
    publication republished it thin; a list is corrected by a rebuild, which writes a new record.
    """

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class StaffOnlyFieldsMixin:
    """Fields set by federation staff only, whichever door the form is reached by (change page, add page, popup).

    ``staff_permission`` marks who is staff for this model (a permission the organisers' group does not hold);
    ``staff_only_fields`` are read-only for everyone else; ``staff_hidden_fields`` are not shown to anyone else at
    all, in the form, the list's columns or its filters (a game server's name is the federation's business).
    """

    staff_permission: str = ""
    staff_only_fields: tuple[str, ...] = ()
    staff_hidden_fields: tuple[str, ...] = ()

    def is_staff_for_fields(self, request) -> bool:
        return bool(self.staff_permission) and request.user.has_perm(self.staff_permission)

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not self.is_staff_for_fields(request):
            fields += [name for name in self.staff_only_fields if name not in fields]
        return fields

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if self.is_staff_for_fields(request):
            return fields
        return [name for name in fields if name not in self.staff_hidden_fields]

    def get_exclude(self, request, obj=None):
        exclude = list(super().get_exclude(request, obj) or [])
        if not self.is_staff_for_fields(request):
            exclude += [name for name in self.staff_hidden_fields if name not in exclude]
        return exclude

    def get_list_display(self, request):
        fields = super().get_list_display(request)
        if self.is_staff_for_fields(request):
            return fields
        return [name for name in fields if name not in self.staff_hidden_fields]

    def get_list_filter(self, request):
        fields = super().get_list_filter(request)
        if self.is_staff_for_fields(request):
            return fields
        return [name for name in fields if name not in self.staff_hidden_fields]
