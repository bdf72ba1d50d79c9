"""The "how this rating works" pages (``ratings.guides``)."""

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from federation.i18n import current_language
from ratings.glossary import GLOSSARY, GUIDE_GLOSSARY
from ratings.guides import GUIDES, worked_example


@require_safe
def guide_index(request):
    guides = [
        {"slug": g.slug, "title": g.title, "url": reverse("ratings:guide", args=[g.slug])} for g in GUIDES.values()
    ]
    return render(request, "ratings/guides/index.html", {"guides": guides})


@require_safe
def guide(request, slug: str):
    found = GUIDES.get(slug)
    if found is None:
        raise Http404(slug)
    context = {
        "guide": found,
        "example": worked_example(slug, current_language()),
        "glossary": GLOSSARY[GUIDE_GLOSSARY[slug]],
        "lists_url": reverse(found.lists_url),
        "breadcrumbs": [{"label": found.title}],
    }
    return render(request, found.template, context)
