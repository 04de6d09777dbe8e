"""Reading JSON from a request, with limits: a body is refused with a 4xx answer naming what
is wrong, before anything is touched, rather than reaching Python's own limits (a JSON
array nested 100,000 deep ends the decoder in RecursionError, a 5,000-digit integer in
the ValueError of int-to-str conversion) as a 500.

The bodies the pages send are a few hundred bytes, a few levels deep, with numbers of a
few digits (a drawn seed is 39), so the limits are far above any honest request.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, NoReturn

from starlette.requests import Request

from fibua.server.access import ApiError

#: the largest JSON body read (an order or a new game is well under a kilobyte)
MAX_JSON_BYTES = 64 * 1024
#: the deepest nesting of arrays and objects taken (an order's path is four levels deep)
MAX_DEPTH = 32
#: the most characters a number may have (a seed below 2**256 has 78 digits)
MAX_NUMBER_CHARS = 100

#: a string (skipped whole, so brackets inside it do not count) or a bracket; possessive,
#: so an unterminated string costs one pass, not a backtracking search
_DEPTH_TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]')


def refuse(code: str, message: str, where: str = "") -> NoReturn:
    raise ApiError(400, code, f"{where}: {message}" if where else message)


def nesting_depth(text: str, limit: int) -> int:
    """How deep the text's arrays and objects go, counting no further than `limit` + 1
    (the text need not be valid JSON: brackets inside strings are not counted)."""
    depth = deepest = 0
    for match in _DEPTH_TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif token in "]}":
            depth -= 1
    return deepest


def _integer(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        refuse("number-too-long", f"a number in the body has {len(text.lstrip('-'))} digits; "
                                  f"at most {MAX_NUMBER_CHARS} are taken")
    return int(text)


def _real(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        refuse("number-too-long", f"a number in the body is {len(text)} characters long; "
                                  f"at most {MAX_NUMBER_CHARS} are taken")
    value = float(text)
    if not math.isfinite(value):
        refuse("number-out-of-range", f"the number {text} is too large for a JSON number")
    return value


def _constant(text: str) -> NoReturn:
    # Python's decoder takes NaN and Infinity, which JSON has not (and no answer can carry)
    refuse("number-out-of-range", f"{text} is not a JSON number")


def loads(text: str, where: str = "") -> Any:
    """The JSON value of `text`, or a 400 ApiError naming what is wrong (`where`, such as a
    line number, goes before the reason)."""
    depth = nesting_depth(text, MAX_DEPTH)
    if depth > MAX_DEPTH:
        refuse("too-deep", f"arrays and objects are nested more than {MAX_DEPTH} deep", where)
    try:
        return json.loads(text, parse_int=_integer, parse_float=_real, parse_constant=_constant)
    except ApiError as error:
        refuse(error.code, error.message, where)
    except json.JSONDecodeError as error:
        refuse("bad-json", f"not JSON ({error.msg} at line {error.lineno} column "
                           f"{error.colno})", where)


def check_limits(text: str, where: str = "") -> None:
    """Refuse (400) text past the depth or number limits; text that is merely not JSON is
    left to its reader, which has its own words for that (a log's line, say)."""
    try:
        loads(text, where)
    except ApiError as error:
        if error.code != "bad-json":
            raise


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").partition(";")[0].strip().lower()


async def limited_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) as soon as it passes `limit` bytes, whatever the
    Content-Length says."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large(limit)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise too_large(limit)
    return bytes(data)


def too_large(limit: int) -> ApiError:
    return ApiError(413, "too-large", f"the body is larger than {limit // 1024} KiB, the most "
                                      "this route reads")


async def json_body(request: Request) -> Any:
    """The body of a route that reads JSON: sent as application/json (anything else is 415,
    so a plain HTML form or a text/plain fetch from another page can never be read as an
    order), at most MAX_JSON_BYTES, UTF-8, within the limits above; empty reads as {}."""
    if media_type(request) != "application/json":
        raise ApiError(415, "not-json", "this route reads JSON: send the body with "
                                        "Content-Type: application/json")
    raw = await limited_body(request, MAX_JSON_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        refuse("bad-json", f"the body is not UTF-8 text (byte {error.start})")
    return loads(text) if text.strip() else {}
