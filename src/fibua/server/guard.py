"""What stands between the routes and any web page: a pure ASGI middleware that

- answers only requests addressed to this server: the Host header must name an address
  it serves (a page on `evil.example` that rebinds its name to 127.0.0.1 sends
  `Host: evil.example` and is refused, so it cannot read the games list);
- refuses a state-changing request (any method but GET, HEAD and OPTIONS, and every
  WebSocket handshake) whose Origin is another site's: a page elsewhere cannot create,
  upload or order on a local server. A request without Origin (curl, scripts) passes: a
  browser always sends one with such requests;
- adds the security headers to every answer (the pages' scripts and styles are files of
  their own, so the policy allows nothing inline).

It looks at a connection once, at its start: a WebSocket's messages pass through untouched.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

#: every answer's headers: nothing from another origin, nothing inline, never in a frame
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-resource-policy": "same-origin",
}
#: the methods that change nothing, which any origin may use (it cannot read the answer)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


@dataclass(frozen=True)
class Served:
    """The addresses a server answers to: a Host header passes if its name is one of
    `names` and its port is `port` (None: any), or its name is one of `extra` (any port:
    names a proxy in front of the server uses), or, with `any_address`, it is an IP
    address (the server listens on every interface; a rebinding page sends its own name,
    never an address)."""

    names: frozenset[str]
    port: int | None
    extra: frozenset[str] = frozenset()
    any_address: bool = False

    def allows(self, host: str, port: int) -> bool:
        if host in self.extra:
            return True
        if self.port is not None and port != self.port:
            return False
        return host in self.names or (self.any_address and is_address(host))


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return True


def bracketed(host: str) -> str:
    """An IPv6 address as a Host header writes it."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]")).is_loopback
    except ValueError:
        return False


def served(host: str, port: int | None, also: Iterable[str] = ()) -> Served:
    """What a server bound to `host`:`port` answers to: on loopback, every loopback alias;
    on every interface, the loopback aliases and any IP address; otherwise the bound
    address itself. `also` adds names (a proxy's, a machine name) on any port."""
    extra = frozenset(bracketed(name.lower()) for name in also)
    bound = bracketed(host.lower())
    if host in WILDCARDS:
        return Served(LOOPBACK_NAMES, port, extra, any_address=True)
    if is_loopback(host):
        return Served(LOOPBACK_NAMES | {bound}, port, extra)
    return Served(frozenset({bound}), port, extra)


def split_host(value: str, scheme: str) -> tuple[str, int] | None:
    """(name, port) of a Host header or an origin's authority; None if it is malformed."""
    try:
        parts = urlsplit(f"//{value}")
        port = parts.port
    except ValueError:
        return None
    name = parts.hostname
    if not name or parts.username is not None or parts.password is not None or parts.path:
        return None
    return bracketed(name.lower()), port if port is not None else DEFAULT_PORTS[scheme]


def same_origin(origin: str, host: tuple[str, int], scheme: str) -> bool:
    """Whether an Origin header names this very site (the scheme, name and port the request
    came to); "null" (a sandboxed frame, a file) never does."""
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or parts.path or parts.query:
        return False
    found = split_host(parts.netloc, parts.scheme)
    web_scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return found == host and parts.scheme == web_scheme


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


class Guard:
    """The middleware: `served` is what the Host header may name."""

    def __init__(self, app: ASGIApp, served: Served) -> None:
        self.app = app
        self.served = served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http":
            send = with_headers(send)
        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await refusal(scope, receive, send)
        else:
            await refuse_socket(refusal, scope, receive, send)

    def refusal(self, scope: Scope) -> JSONResponse | None:
        scheme = scope.get("scheme", "http")
        value = header(scope, b"host")
        host = split_host(value, scheme) if value is not None else None
        if host is None or not self.served.allows(*host):
            named = f"the host {value!r}" if value is not None else "a request naming no host"
            return problem(400, "bad-host", f"this server does not answer to {named}: open it "
                                            "at the address it printed")
        origin = header(scope, b"origin")
        changes = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        if changes and origin is not None and not same_origin(origin, host, scheme):
            return problem(403, "cross-origin",
                           f"a page from {origin!r} may not act on this server: only its own "
                           "pages (or clients that send no Origin) may")
        return None


def problem(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            for name, value in SECURITY_HEADERS.items():
                headers.setdefault(name, value)
        await send(message)

    return sending


async def refuse_socket(refusal: JSONResponse, scope: Scope, receive: Receive,
                        send: Send) -> None:
    """Refuse a WebSocket handshake with the HTTP answer where the server can send one
    (uvicorn can), else by closing it before it opens (the client sees a 403)."""
    socket = WebSocket(scope, receive, send)
    if "websocket.http.response" in scope.get("extensions", {}):
        await socket.send_denial_response(refusal)
    else:
        await socket.close(code=1008)
