"""Packing entries for persistent backends (DECISIONS D16; issue 5 "format version"). Pure.

Categories:
- round trip: good entries, failing entries with and without a good copy, distinct bodies,
  non-ASCII headers, the full 512,000-byte body, every field kept, the body stored raw
- refusals (a miss, never a crash): unknown version, foreign bytes, another origin, cut at
  every length, flipped bytes, wrong types, trailing bytes (hypothesis)
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings, strategies as st

from robotsclient._origin import origin_of
from robotsclient._outcome import FetchResult
from robotsclient._policy import CachePolicy, record
from robotsclient._storages._base import Entry
from robotsclient._storages._packing import FORMAT_VERSION, MAGIC, UnpackError, pack, unpack

ORIGIN = origin_of("https://example.com/")
T0 = 1_700_000_000.0
POLICY = CachePolicy()
BODY = b"User-agent: *\nDisallow: /private\n"


def result(status: int | None = 200, body: bytes = BODY, at: float = T0) -> FetchResult:
    return FetchResult(
        url=ORIGIN.robots_url,
        status=status,
        headers=(("cache-control", "max-age=600"), ("etag", '"v1"'), ("x-caf\u00e9", "cr\u00e8me")),
        body=body,
        chain=(ORIGIN.robots_url, "https://www.example.com/robots.txt"),
        error=None if status is not None else "read: connection reset",
        truncated=len(body) >= 512_000,
        fetched_at=at,
        elapsed=0.25,
        redirected_too_often=False,
    )


GOOD = record(None, result(), T0, POLICY)
FAILING = record(GOOD, result(503, b"", T0 + 700), T0 + 700, POLICY)
FAILING_COLD = record(None, result(None, b""), T0, POLICY)
OTHER_BODY = Entry(
    result=result(200, b"User-agent: *\nAllow: /\n", T0 + 5),
    good=result(200, BODY),
    expires_at=T0 + 600,
    lifetime=600.0,
)


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(GOOD, id="good"),
        pytest.param(FAILING, id="failing-with-copy"),
        pytest.param(FAILING_COLD, id="failing-without-copy"),
        pytest.param(OTHER_BODY, id="good-differs-from-latest"),
        pytest.param(record(None, result(200, b"x" * 512_000), T0, POLICY), id="full-body"),
        pytest.param(
            Entry(result=result(), good=result(), expires_at=T0, lifetime=0.0, no_store=True),
            id="no-store-flag",
        ),
    ],
)
def test_d16_round_trip_keeps_every_field(entry: Entry) -> None:
    """D16: a packed entry unpacks equal: body, record, failure state and validators."""
    back = unpack(pack(ORIGIN, entry), ORIGIN)
    assert back == entry


def test_d16_same_good_and_latest_are_stored_once() -> None:
    """D16: when the latest result is the good copy, its body is written once and shared."""
    data = pack(ORIGIN, GOOD)
    assert data.count(BODY) == 1
    back = unpack(data)
    assert back.good is back.result


def test_d16_body_is_stored_raw_not_base64() -> None:
    """D16: the raw body is stored as it came, so 500 KiB stays about 500 KiB."""
    big = record(None, result(200, bytes(range(256)) * 2000), T0, POLICY)
    data = pack(ORIGIN, big)
    assert data.endswith(big.result.body)
    assert len(data) < len(big.result.body) + 2000


def test_d16_never_fresh_expiry_survives() -> None:
    """A failure with no good copy has expires_at = -inf, which JSON cannot hold: it round-trips."""
    assert FAILING_COLD.expires_at == -math.inf
    assert unpack(pack(ORIGIN, FAILING_COLD)).expires_at == -math.inf


def test_issue5_unknown_version_is_refused() -> None:
    """Issue 5: an entry of an unknown format version is a miss (UnpackError), not a crash."""
    data = pack(ORIGIN, GOOD).replace(b"%s%d\n" % (MAGIC, FORMAT_VERSION), MAGIC + b"99\n", 1)
    with pytest.raises(UnpackError, match="version 99"):
        unpack(data, ORIGIN)


def test_issue5_foreign_origin_is_refused() -> None:
    """Issue 5: an entry written for another origin (a hash clash, a copied file) is a miss."""
    with pytest.raises(UnpackError, match=r"example\.org"):
        unpack(pack(origin_of("https://example.org/"), GOOD), ORIGIN)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"User-agent: *\nDisallow: /\n", id="a-robots-txt"),
        pytest.param(MAGIC, id="marker-only"),
        pytest.param(MAGIC + b"x\n{}\n", id="bad-version"),
        pytest.param(MAGIC + b"1\n{not json\n", id="bad-json"),
        pytest.param(MAGIC + b"1\n[]\n", id="json-not-an-object"),
        pytest.param(MAGIC + b"1\n{}\n", id="missing-fields"),
        pytest.param(MAGIC + b"1\n\xff\xfe\n", id="not-ascii"),
        pytest.param(MAGIC + b'1\n{"origin": 1}', id="record-line-cut"),
    ],
)
def test_issue5_garbage_is_refused(data: bytes) -> None:
    """D16: bytes that are not an entry raise UnpackError with a reason."""
    with pytest.raises(UnpackError):
        unpack(data, ORIGIN)


def test_issue5_not_bytes_is_refused() -> None:
    """D16: a backend handing over the wrong type gets a clear refusal."""
    with pytest.raises(UnpackError, match="bytes"):
        unpack("text", ORIGIN)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        pytest.param("failures", "1", id="failures-a-string"),
        pytest.param("failures", True, id="failures-a-bool"),
        pytest.param("no_store", 0, id="no-store-an-int"),
        pytest.param("lifetime", None, id="lifetime-null"),
        pytest.param("retry_at", "soon", id="retry-at-a-string"),
        pytest.param("good", 7, id="good-a-number"),
    ],
)
def test_issue5_wrong_types_are_refused(field: str, value: object) -> None:
    """D16: a record whose fields have the wrong types is corrupt, not half-loaded."""
    data = pack(ORIGIN, GOOD)
    head_start = data.index(b"\n") + 1
    head_end = data.index(b"\n", head_start)
    head = json.loads(data[head_start:head_end])
    head[field] = value
    forged = data[:head_start] + json.dumps(head).encode() + data[head_end:]
    with pytest.raises(UnpackError):
        unpack(forged, ORIGIN)


def test_issue5_trailing_bytes_are_refused() -> None:
    """D16: more body bytes than the record announces means the file is not what we wrote."""
    with pytest.raises(UnpackError, match="body bytes"):
        unpack(pack(ORIGIN, GOOD) + b"junk", ORIGIN)


def test_issue5_every_truncation_is_refused() -> None:
    """Issue 5: a file cut at any length (a crash mid-write elsewhere) is a miss."""
    data = pack(ORIGIN, FAILING)
    for length in range(len(data)):
        with pytest.raises(UnpackError):
            unpack(data[:length], ORIGIN)


@settings(max_examples=300, deadline=None)
@given(position=st.integers(min_value=0), value=st.integers(min_value=0, max_value=255))
def test_issue5_flipped_byte_never_crashes(position: int, value: int) -> None:
    """D16: any single corrupted byte gives an entry or UnpackError, never another exception."""
    data = bytearray(pack(ORIGIN, FAILING))
    data[position % len(data)] = value
    try:
        back = unpack(bytes(data), ORIGIN)
    except UnpackError:
        return
    assert isinstance(back, Entry)
