"""Rating lists in the admin: parameters validated by the engine; snapshots and changes read-only.

Each discipline adds its own staff actions and admin views (publish, rebuild, progress) through
``ratings.<discipline>.admin_hooks``: ``ACTIONS`` (admin actions on RatingList) and ``urls(model_admin)``.
"""

from django.contrib import admin
from django.utils.module_loading import import_string
from simple_history.admin import SimpleHistoryAdmin

from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot

HOOK_MODULES = ["ratings.gorbunov.admin_hooks", "ratings.mahjong.admin_hooks"]


def _hooks():
    for module in HOOK_MODULES:
        yield import_string(module + ".urls"), import_string(module + ".ACTIONS")


@admin.register(RatingList)
class RatingListAdmin(SimpleHistoryAdmin):
    list_display = ["name", "slug", "engine", "is_active", "ordering"]
    list_filter = ["engine", "is_active"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "name_en", "slug"]

    def get_actions(self, request):
        actions = super().get_actions(request)
        for _urls, hook_actions in _hooks():
            for action in hook_actions:
                actions[action.__name__] = self.get_action(action)
        return actions

    def get_urls(self):
        extra = []
        for urls, _actions in _hooks():
            extra += urls(self)
        return extra + super().get_urls()


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(RatingSnapshot)
class RatingSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["rating_list", "as_of", "computed_at"]
    list_filter = ["rating_list"]
    date_hierarchy = "as_of"


@admin.register(RatingEntry)
class RatingEntryAdmin(ReadOnlyAdmin):
    list_display = ["snapshot", "rank", "player", "rating", "delta", "events"]
    list_select_related = ["snapshot__rating_list", "player"]
    list_filter = ["snapshot__rating_list"]
    autocomplete_fields = ["player"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    show_full_result_count = False


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["rating_list", "player", "tournament", "event_date", "before", "delta", "after"]
    list_select_related = ["rating_list", "player", "tournament"]
    list_filter = ["rating_list"]
    search_fields = ["player__last_name", "player__last_name_latin", "tournament__name"]
    show_full_result_count = False
