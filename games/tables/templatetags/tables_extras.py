from django import template

from games.tables import chat, clocks

register = template.Library()


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """{{ names|get_item:some_id }}: dictionary lookup by a variable key."""
    return mapping.get(key, key) if isinstance(mapping, dict) else key


@register.filter
def lookup(mapping: object, key: object) -> object:
    """{{ away|lookup:seat.player_id }}: the value for a variable key, None when it is missing
    (get_item, above, gives the key back instead)."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.simple_tag
def server_now_ms() -> int:
    """The server's time in milliseconds since 1970: static/js/clock.js corrects the browser's
    clock by it, so that a deadline counts down right on a browser whose clock is off."""
    return clocks.epoch_ms(clocks.now())


@register.filter
def epoch_ms(moment: object) -> int | str:
    """{{ since|epoch_ms }}: a datetime as milliseconds since 1970 (static/js/clock.js counts
    from it in the reader's browser); "" for anything else."""
    return clocks.epoch_ms(moment) if hasattr(moment, "timestamp") else ""


@register.filter
def chat_links(text: str) -> str:
    """{{ m.text|chat_links }}: a chat line, escaped, links to this site made clickable."""
    return chat.linked(text)
