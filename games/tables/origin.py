"""The websocket Origin check: the page opening a socket must be this site, scheme and port too.

Channels' AllowedHostsOriginValidator compares only the Origin's host name with ALLOWED_HOSTS,
so `http://127.0.0.1:9999` passed on a server at :8000, and `http://host` on an https site. Here
the Origin must equal the origin the request itself was made to (its Host header, which must be
an allowed host, with http for ws and https for wss or a proxy's X-Forwarded-Proto: https when
SECURE_PROXY_SSL_HEADER is set), or one of DJANGO_CSRF_TRUSTED_ORIGINS exactly.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _headers(scope: dict) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in scope.get("headers", [])}


def _scheme(scope: dict, headers: dict[bytes, bytes]) -> str:
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        if headers.get(name, b"").decode("latin-1") == proxy[1]:
            return "https"
    return "https" if scope.get("scheme") == "wss" else "http"


def origin_allowed(scope: dict) -> bool:
    headers = _headers(scope)
    origin = headers.get(b"origin", b"").decode("latin-1").strip().lower().rstrip("/")
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    if not origin or origin == "null":
        return False
    trusted = {o.strip().lower().rstrip("/") for o in settings.CSRF_TRUSTED_ORIGINS}
    if origin in trusted:
        return True
    if not host:
        return False
    domain, _ = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return False
    return origin == f"{_scheme(scope, headers)}://{host}"


class SameOriginValidator:
    """ASGI middleware: refuse (403 at the handshake) a websocket from any other origin."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)
