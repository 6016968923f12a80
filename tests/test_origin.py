"""Origins and URL splitting (DECISIONS D10, D17; Google spec "File location" / "URLs"). Pure.

Categories:
- schemes: only http and https, any case (D10)
- hosts: lower-cased, IDNA/punycode, IPv4 kept, IPv6 in brackets, invalid characters refused
- ports: the scheme's default folded, others kept, bad ports refused
- userinfo: dropped
- errors: relative URLs, no host, other schemes, non-strings -> InvalidURL (a ValueError, D17)
- Origin value: str, netloc, robots_url, equality, invariants
- split_target: path+params+query without fragment, "/" when empty, one split that agrees with
  the parser's own `path_of` (property test)
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, strategies as st

from robotsclient._exceptions import InvalidURL, RobotsError
from robotsclient._origin import Origin, origin_of, split_target
from robotsclient._paths import path_of

# --- schemes (D10) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "scheme"),
    [
        pytest.param("http://example.com/", "http", id="http"),
        pytest.param("https://example.com/", "https", id="https"),
        pytest.param("HTTP://example.com/", "http", id="upper-http"),
        pytest.param("HtTpS://example.com/", "https", id="mixed-https"),
    ],
)
def test_d10_http_and_https_schemes_any_case(url: str, scheme: str) -> None:
    """D10: only http and https; the scheme is case-insensitive (RFC 3986 §3.1)."""
    assert origin_of(url).scheme == scheme


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("ftp://example.com/robots.txt", id="ftp"),
        pytest.param("file:///etc/robots.txt", id="file"),
        pytest.param("mailto:bot@example.com", id="mailto"),
        pytest.param("javascript:alert(1)", id="javascript"),
        pytest.param("ws://example.com/", id="ws"),
        pytest.param("data:text/plain,hello", id="data"),
    ],
)
def test_d10_other_schemes_raise_invalid_url(url: str) -> None:
    """D10/D17: anything but http(s) is a clear ValueError-family error naming the scheme."""
    with pytest.raises(InvalidURL, match="only http and https") as caught:
        origin_of(url)
    assert caught.value.url == url
    assert url in str(caught.value)


def test_d17_missing_scheme_is_explained() -> None:
    """D17: `host:port/path` reads as a scheme; the message hints at the missing http://."""
    with pytest.raises(InvalidURL, match="missing 'http://'"):
        origin_of("localhost:8080/robots.txt")


# --- hosts (D10) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "host"),
    [
        pytest.param("http://EXAMPLE.Com/", "example.com", id="lower-cased"),
        pytest.param("http://www.example.com./", "www.example.com.", id="trailing-dot-kept"),
        pytest.param("http://under_score.example/", "under_score.example", id="underscore"),
        pytest.param("http://Bücher.example/", "xn--bcher-kva.example", id="idna-umlaut"),
        pytest.param("http://BÜCHER.EXAMPLE/", "xn--bcher-kva.example", id="idna-upper"),
        pytest.param("http://例え.テスト/", "xn--r8jz45g.xn--zckzah", id="idna-japanese"),
        pytest.param("http://faß.de/", "xn--fa-hia.de", id="idna2008-eszett-kept"),
        pytest.param("http://ｅｘａｍｐｌｅ。ｃｏｍ/", "example.com", id="uts46-fullwidth"),
        pytest.param("http://XN--BCHER-KVA.example/", "xn--bcher-kva.example", id="punycode-lower"),
        pytest.param("http://☃.net/", "xn--n3h.net", id="idna2003-fallback-symbol"),
        pytest.param("http://192.0.2.7:8080/", "192.0.2.7", id="ipv4"),
    ],
)
def test_d10_host_normal_form(url: str, host: str) -> None:
    """D10: hosts are lower-cased, non-ASCII names in IDNA/punycode (UTS 46 mapping)."""
    assert origin_of(url).host == host


@pytest.mark.parametrize(
    ("url", "host", "port"),
    [
        pytest.param("http://[::1]/", "[::1]", 80, id="loopback"),
        pytest.param("http://[0:0:0:0:0:0:0:1]:8080/", "[::1]", 8080, id="compressed"),
        pytest.param("https://[2001:DB8::A]/x", "[2001:db8::a]", 443, id="lower-cased"),
        pytest.param("http://[::ffff:192.0.2.1]/", "[::ffff:c000:201]", 80, id="v4-mapped"),
    ],
)
def test_d10_ipv6_literal_kept_in_brackets(url: str, host: str, port: int) -> None:
    """D10: an IPv6 literal keeps its brackets, in one canonical (compressed) spelling."""
    origin = origin_of(url)
    assert (origin.host, origin.port) == (host, port)


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("http://[::1/", id="unclosed"),
        pytest.param("http://[::g]/", id="not-hex"),
        pytest.param("http://[::1]x/", id="junk-after"),
        pytest.param("http://::1/", id="unbracketed"),
        pytest.param("http://exa mple.com/", id="space"),
        pytest.param("http://%65xample.com/", id="percent"),
        pytest.param("http://example.com\\evil.com/", id="backslash"),
        pytest.param("http://exa<mple.com/", id="angle"),
    ],
)
def test_d17_invalid_hosts_raise(url: str) -> None:
    """D17: a host that is no DNS name or IP literal is bad caller input, not a fetch."""
    with pytest.raises(InvalidURL):
        origin_of(url)


# --- ports (D10) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right"),
    [
        pytest.param("https://a.com:443/x", "https://a.com/y", id="https-443"),
        pytest.param("http://a.com:80/", "http://a.com", id="http-80"),
        pytest.param("http://a.com:/", "http://a.com/", id="empty-port"),
        pytest.param("http://a.com:0080/", "http://a.com/", id="leading-zeros"),
        pytest.param("HTTP://A.COM:80", "http://a.com/", id="case-and-port"),
    ],
)
def test_d10_default_port_folded(left: str, right: str) -> None:
    """D10: `https://a.com:443` and `https://a.com` are one origin, one robots.txt."""
    assert origin_of(left) == origin_of(right)
    assert hash(origin_of(left)) == hash(origin_of(right))
    assert str(origin_of(left)) == str(origin_of(right))


@pytest.mark.parametrize(
    ("left", "right"),
    [
        pytest.param("http://a.com/", "https://a.com/", id="scheme"),
        pytest.param("http://a.com:443/", "https://a.com/", id="http-on-443"),
        pytest.param("http://a.com:8080/", "http://a.com/", id="other-port"),
        pytest.param("http://a.com/", "http://www.a.com/", id="subdomain"),
    ],
)
def test_d10_distinct_origins_stay_apart(left: str, right: str) -> None:
    """D10 / Google spec "File location": scheme, host and port each make a different origin."""
    assert origin_of(left) != origin_of(right)


@pytest.mark.parametrize(
    "port",
    ["0", "65536", "99999", "8o", "-1", "+80", " 80", "123456"],
)
def test_d17_bad_port_raises(port: str) -> None:
    """D17: a port outside 1..65535 or not in digits is refused with the port in the message."""
    with pytest.raises(InvalidURL, match="port"):
        origin_of(f"http://a.com:{port}/")


# --- userinfo (D10) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://user:secret@a.com/",
        "http://user@a.com/",
        "http://@a.com/",
        "http://us%40er:p%3Ass@a.com:80/",
        "http://x@y@a.com/",
    ],
)
def test_d10_userinfo_dropped(url: str) -> None:
    """D10: credentials are not part of the origin and never reach the robots.txt URL."""
    origin = origin_of(url)
    assert origin == Origin("http", "a.com", 80)
    assert "@" not in origin.robots_url


# --- errors (D17) -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        pytest.param("/robots.txt", "not an absolute URL", id="path"),
        pytest.param("//a.com/x", "not an absolute URL", id="scheme-relative"),
        pytest.param("a.com/x", "not an absolute URL", id="bare-host"),
        pytest.param("", "not an absolute URL", id="empty"),
        pytest.param(" http://a.com/", "not an absolute URL", id="leading-space"),
        pytest.param("http:/a.com/x", "no host", id="one-slash"),
        pytest.param("http:a.com", "no host", id="no-slashes"),
        pytest.param("http:///x", "no host", id="empty-authority"),
        pytest.param("http://:80/", "no host", id="port-only"),
        pytest.param("https://user@/", "no host", id="userinfo-only"),
    ],
)
def test_d17_relative_or_hostless_urls_raise(url: str, reason: str) -> None:
    """D17: the client needs an absolute URL with a host; the message says what is missing."""
    with pytest.raises(InvalidURL, match=reason):
        split_target(url)


@pytest.mark.parametrize("value", [None, 42, b"http://a.com/", ["http://a.com/"]])
def test_d17_non_string_raises_invalid_url(value: object) -> None:
    """D17: a URL must be a str; the error names the type."""
    with pytest.raises(InvalidURL, match=type(value).__name__):
        origin_of(value)  # type: ignore[arg-type]


def test_d17_invalid_url_is_value_error_and_robots_error() -> None:
    """D17: one exception tree, and bad input is also a ValueError for callers who catch that."""
    with pytest.raises(ValueError, match="no host") as caught:
        origin_of("http:///")
    assert isinstance(caught.value, RobotsError)


def test_d17_errors_are_not_cached() -> None:
    """The authority cache stores origins only: a bad URL raises every time, with its own URL."""
    for suffix in ("a", "b"):
        with pytest.raises(InvalidURL) as caught:
            origin_of(f"http://bad host/{suffix}")
        assert caught.value.url == f"http://bad host/{suffix}"


# --- the Origin value ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "text", "robots_url"),
    [
        pytest.param(
            Origin("https", "a.com", 443), "https://a.com", "https://a.com/robots.txt", id="default"
        ),
        pytest.param(
            Origin("http", "a.com", 8080),
            "http://a.com:8080",
            "http://a.com:8080/robots.txt",
            id="port",
        ),
        pytest.param(
            Origin("http", "[::1]", 8080),
            "http://[::1]:8080",
            "http://[::1]:8080/robots.txt",
            id="ipv6",
        ),
        pytest.param(
            Origin("http", "a.com", 443), "http://a.com:443", "http://a.com:443/robots.txt", id="x"
        ),
    ],
)
def test_origin_str_and_robots_url(origin: Origin, text: str, robots_url: str) -> None:
    """Google spec "File location": robots.txt sits at the top of the origin; str is the origin."""
    assert str(origin) == text
    assert origin.robots_url == robots_url
    assert origin_of(robots_url) == origin


@pytest.mark.parametrize(
    ("scheme", "host", "port"),
    [("ftp", "a.com", 21), ("http", "", 80), ("http", "a.com", 0), ("https", "a.com", 70000)],
)
def test_origin_constructor_checks_invariants(scheme: str, host: str, port: int) -> None:
    """D10: an Origin built by hand still has an http(s) scheme, a host and a real port."""
    with pytest.raises(InvalidURL):
        Origin(scheme, host, port)


def test_origin_is_frozen() -> None:
    """Origins are cache keys: immutable values."""
    origin = origin_of("http://a.com/")
    with pytest.raises(dataclasses.FrozenInstanceError):
        origin.host = "b.com"  # type: ignore[misc]


# --- split_target -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "target"),
    [
        pytest.param("http://a.com", "/", id="no-path"),
        pytest.param("http://a.com#top", "/", id="fragment-only"),
        pytest.param("http://a.com?q=1", "/?q=1", id="query-without-path"),
        pytest.param("http://a.com/p;x=1?q=1#f", "/p;x=1?q=1", id="params-query-no-fragment"),
        pytest.param("http://a.com/p?", "/p?", id="empty-query-kept"),
        pytest.param("http://a.com/a%2fb/%7E", "/a%2fb/%7E", id="escapes-untouched"),
        pytest.param("http://a.com/é?x=ü", "/é?x=ü", id="non-ascii-untouched"),
        pytest.param("https://u:p@A.com:443/x/../y", "/x/../y", id="dots-untouched"),
    ],
)
def test_split_target_path_params_query(url: str, target: str) -> None:
    """D7: the URL's path, params and query are matched, the fragment is not."""
    origin, path = split_target(url)
    assert path == target
    assert origin == origin_of(url)


_HOSTS = st.sampled_from(["a.com", "WWW.Example.ORG", "bücher.de", "[::1]", "192.0.2.1"])
_PORTS = st.sampled_from(["", ":80", ":443", ":8080", ":"])
_REST = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="#"), max_size=30
)


@given(
    scheme=st.sampled_from(["http", "https", "HTTP"]),
    userinfo=st.sampled_from(["", "u@", "u:p@"]),
    host=_HOSTS,
    port=_PORTS,
    rest=_REST,
    fragment=st.sampled_from(["", "#", "#frag"]),
)
def test_split_target_agrees_with_parser_and_is_idempotent(
    scheme: str, userinfo: str, host: str, port: str, rest: str, fragment: str
) -> None:
    """D7/D10: the path split once here is the one the parser matches, and origins are stable."""
    if rest and rest[0] not in "/?":
        rest = "/" + rest
    url = f"{scheme}://{userinfo}{host}{port}{rest}{fragment}"
    origin, path = split_target(url)
    assert path == path_of(url)
    assert origin_of(str(origin)) == origin
    assert origin_of(origin.robots_url) == origin
