"""Links and who holds them: secret tokens, stored only as their SHA-256, compared in
constant time, and the problems the server answers with (a status, a code, a message)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

#: the creator's token manages the game; the spectator's watches it; a seat's plays it
CREATOR = "creator"
SPECTATOR = "spectator"
SEAT_PREFIX = "seat:"


class ApiError(Exception):
    """A request the server refuses: an HTTP status, a short code and a message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_role(seat: str) -> str:
    return SEAT_PREFIX + seat


@dataclass(frozen=True)
class Holder:
    """Who a token stands for: the role name (creator, spectator or seat:NAME)."""

    role: str

    @property
    def seat(self) -> str | None:
        return self.role[len(SEAT_PREFIX):] if self.role.startswith(SEAT_PREFIX) else None


def find_holder(token: str | None, hashes: Mapping[str, str]) -> Holder | None:
    """The role whose stored hash matches the token; every stored hash is compared, each in
    constant time, so the answer's timing does not depend on which one matched."""
    if not token:
        return None
    digest = token_hash(token)
    found: str | None = None
    for role, stored in hashes.items():
        if hmac.compare_digest(digest, stored):
            found = role
    return Holder(found) if found is not None else None


NO_ACCESS = ApiError(403, "forbidden", "this link does not give access to that")
