from django import template

register = template.Library()


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """{{ names|get_item:some_id }}: dictionary lookup by a variable key."""
    return mapping.get(key, key) if isinstance(mapping, dict) else key
