from django import template

from federation import formatting

register = template.Library()


@register.filter
def signed(value, digits=2):
    """A rating change with its sign in the reader's language (``federation.formatting.delta``)."""
    try:
        places = int(digits)
    except (TypeError, ValueError):
        return ""
    return formatting.delta(value, places)
