from django import template

from games.tables import clocks

register = template.Library()


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """{{ names|get_item:some_id }}: dictionary lookup by a variable key."""
    return mapping.get(key, key) if isinstance(mapping, dict) else key


@register.simple_tag
def server_now_ms() -> int:
    """The server's time in milliseconds since 1970: static/js/clock.js corrects the browser's
    clock by it, so that a deadline counts down right on a browser whose clock is off."""
    return clocks.epoch_ms(clocks.now())
