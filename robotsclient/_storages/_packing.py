"""Entry <-> bytes for persistent backends (D16): a versioned JSON record, then the raw bodies.

Layout (version 1):

    robotsclient-entry/1\\n
    {"origin": ..., "result": {...record...}, "good": "result" | {...} | null, ...}\\n
    <result body bytes><good body bytes>

The JSON line holds every field but the bodies, whose lengths it gives; the bodies follow raw
(no base64: a 500 KiB robots.txt stays 500 KiB). Only the raw body and the fetch record are
stored, never the parsed form (D16). Pure: no I/O.

`unpack` refuses anything it did not write: another version, a foreign origin, cut or corrupt
bytes raise UnpackError with the reason, which a backend logs and treats as a miss (issue 5).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from .._outcome import FetchResult
from ._base import Entry

if TYPE_CHECKING:
    from .._origin import Origin

__all__ = ["FORMAT_VERSION", "MAGIC", "UnpackError", "pack", "unpack"]

FORMAT_VERSION = 1
MAGIC = b"robotsclient-entry/"  # then the version in ASCII digits and a newline
_SAME = "result"  # "good" when the last good result is the latest result itself
_MAX_HEAD = 1 << 20  # a record line longer than this is not ours (headers are bounded by httpx)


class UnpackError(ValueError):
    """Bytes that are not an entry this version wrote: a cache miss, never a crash (D16)."""


def pack(origin: Origin, entry: Entry) -> bytes:
    """Return `entry` for `origin` as bytes: version line, JSON record line, raw bodies."""
    result, good = entry.result, entry.good
    same = good is result or good == result
    head: dict[str, Any] = {
        "origin": str(origin),
        "result": _record(result),
        "good": _SAME if same else (None if good is None else _record(good)),
        "expires_at": _number(entry.expires_at),
        "lifetime": entry.lifetime,
        "no_store": entry.no_store,
        "failures": entry.failures,
        "failing_since": entry.failing_since,
        "retry_at": entry.retry_at,
    }
    bodies = result.body if same or good is None else result.body + good.body
    line = json.dumps(head, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return b"%s%d\n%s\n%s" % (MAGIC, FORMAT_VERSION, line.encode("ascii"), bodies)


def unpack(data: bytes, origin: Origin | None = None) -> Entry:
    """Return the entry in `data`; raise UnpackError when it is not one (or not `origin`'s)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UnpackError(f"expected bytes, got {type(data).__name__}")
    data = bytes(data)
    if not data.startswith(MAGIC):
        raise UnpackError("not a robotsclient cache entry (no format marker)")
    version_end = data.find(b"\n", len(MAGIC), len(MAGIC) + 12)
    version = data[len(MAGIC) : version_end]
    if version_end < 0 or not version.isdigit():
        raise UnpackError("corrupt cache entry: unreadable format version")
    if int(version) != FORMAT_VERSION:
        raise UnpackError(
            f"cache entry format version {int(version)} is not {FORMAT_VERSION}: ignored"
        )
    head_end = data.find(b"\n", version_end + 1, version_end + 1 + _MAX_HEAD)
    if head_end < 0:
        raise UnpackError("corrupt cache entry: the record line is cut")
    try:
        head = json.loads(data[version_end + 1 : head_end].decode("ascii"))
        return _entry(head, memoryview(data)[head_end + 1 :], origin)
    except UnpackError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise UnpackError(f"corrupt cache entry: {type(error).__name__}: {error}") from None


def _record(result: FetchResult) -> dict[str, Any]:
    return {
        "url": result.url,
        "status": result.status,
        "headers": [list(pair) for pair in result.headers],
        "body": len(result.body),
        "chain": list(result.chain),
        "error": result.error,
        "truncated": result.truncated,
        "fetched_at": result.fetched_at,
        "elapsed": result.elapsed,
        "redirected_too_often": result.redirected_too_often,
    }


def _number(value: float) -> float | None:
    """JSON has no infinities: a never-fresh `expires_at` (-inf) is written as null."""
    return None if math.isinf(value) else value


def _entry(head: Any, bodies: memoryview, origin: Origin | None) -> Entry:
    if not isinstance(head, dict):
        raise UnpackError("corrupt cache entry: the record is not an object")
    if origin is not None and head["origin"] != str(origin):
        raise UnpackError(f"cache entry of {head['origin']!r} found under {str(origin)!r}")
    result, used = _result(head["result"], bodies, 0)
    raw_good = head["good"]
    if raw_good == _SAME:
        good: FetchResult | None = result
    elif raw_good is None:
        good = None
    else:
        good, used = _result(raw_good, bodies, used)
    if used != len(bodies):
        raise UnpackError(f"corrupt cache entry: {len(bodies)} body bytes, {used} expected")
    expires_at = head["expires_at"]
    return Entry(
        result=result,
        good=good,
        expires_at=-math.inf if expires_at is None else _float(expires_at),
        lifetime=_float(head["lifetime"]),
        no_store=_bool(head["no_store"]),
        failures=_int(head["failures"]),
        failing_since=_optional_float(head["failing_since"]),
        retry_at=_optional_float(head["retry_at"]),
    )


def _result(raw: Any, bodies: memoryview, start: int) -> tuple[FetchResult, int]:
    if not isinstance(raw, dict):
        raise UnpackError("corrupt cache entry: a fetch record is not an object")
    length = _int(raw["body"])
    end = start + length
    if length < 0 or end > len(bodies):
        raise UnpackError("corrupt cache entry: a body is cut short")
    status = raw["status"]
    headers = raw["headers"]
    if not isinstance(headers, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
        for pair in headers
    ):
        raise UnpackError("corrupt cache entry: bad headers")
    chain = raw["chain"]
    if not isinstance(chain, list) or not all(isinstance(url, str) for url in chain):
        raise UnpackError("corrupt cache entry: bad redirect chain")
    result = FetchResult(
        url=_str(raw["url"]),
        status=None if status is None else _int(status),
        headers=tuple((name, value) for name, value in headers),
        body=bytes(bodies[start:end]),
        chain=tuple(chain),
        error=None if raw["error"] is None else _str(raw["error"]),
        truncated=_bool(raw["truncated"]),
        fetched_at=_float(raw["fetched_at"]),
        elapsed=_float(raw["elapsed"]),
        redirected_too_often=_bool(raw["redirected_too_often"]),
    )
    return result, end


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise UnpackError(f"corrupt cache entry: expected a string, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise UnpackError(f"corrupt cache entry: expected true/false, got {value!r}")
    return value


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UnpackError(f"corrupt cache entry: expected an integer, got {value!r}")
    return value


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise UnpackError(f"corrupt cache entry: expected a number, got {value!r}")
    return float(value)


def _optional_float(value: Any) -> float | None:
    return None if value is None else _float(value)
