"""Entries for backend tests."""

from __future__ import annotations

from robotsclient._origin import origin_of
from robotsclient._outcome import FetchResult
from robotsclient._storages._base import Entry

ORIGIN = origin_of("https://example.com/")
OTHER = origin_of("https://other.example/")


def entry(
    body: bytes = b"User-agent: *\nDisallow: /x\n", *, no_store: bool = False, at: float = 1000.0
) -> Entry:
    result = FetchResult(
        ORIGIN.robots_url,
        200,
        headers=(("content-type", "text/plain"), ("etag", '"v1"')),
        body=body,
        chain=(ORIGIN.robots_url,),
        fetched_at=at,
    )
    return Entry(
        result=result, good=result, expires_at=at + 86_400, lifetime=86_400, no_store=no_store
    )
