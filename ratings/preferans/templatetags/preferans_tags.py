from django import template

register = template.Library()


@register.filter
def signed(value, digits=2):
    """A rating change with its sign: +1.86, -0.40, 0.00."""
    try:
        number = float(value)
        places = int(digits)
    except (TypeError, ValueError):
        return ""
    text = f"{number:+.{places}f}"
    return text[1:] if float(text) == 0 else text
