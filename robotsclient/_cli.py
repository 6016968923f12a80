"""The `robotsclient` command line: check, explain, lint and fetch (click).

click was chosen over typer: it is one small, long-kept dependency with no runtime magic, and
its testing and colour handling (colours only on a terminal) are what the commands need.
Exit status: 0 all allowed / no errors, 1 something disallowed / lint errors, 2 usage errors.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from ._exceptions import InvalidArgument
from ._lint import Severity
from ._robots import Verdict, parse

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ._client import Decision, RobotsRecord

__all__ = ["main"]

DEFAULT_AGENT = "robotsclient"
_PROGRESS_MIN_URLS = 20  # a progress bar is worth drawing from this many URLs on
_EPILOG = """\b
Examples:
  robotsclient check https://example.com/a https://example.com/b --agent ExampleBot
  robotsclient check --robots robots.txt /private/x /public/y
  robotsclient check - < urls.txt --json
  robotsclient explain https://example.com/private --agent Googlebot
  robotsclient lint robots.txt
  robotsclient fetch https://example.com/
"""


def _version() -> str:
    from . import __version__

    return __version__


@click.group(epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), prog_name="robotsclient")
def cli() -> None:
    """May this user agent fetch this URL? robots.txt checks, explanations and lint."""


_agent_option = click.option(
    "--agent",
    "-a",
    default=DEFAULT_AGENT,
    show_default=True,
    help="User-Agent header to send; its product token picks the group (D4).",
)
_token_option = click.option(
    "--token",
    default=None,
    help="Product token to match when the agent header is browser-like (D4).",
)
_robots_option = click.option(
    "--robots",
    "robots_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Check against this local robots.txt file: no network is used.",
)
_json_option = click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")


def _read_urls(urls: tuple[str, ...], from_file: TextIO | None) -> list[str]:
    """Collect URLs from the arguments, `-` (standard input) and --from-file, one per line."""
    collected: list[str] = []
    sources: list[Iterable[str]] = []
    for url in urls:
        if url == "-":
            sources.append(sys.stdin)
        else:
            collected.append(url)
    if from_file is not None:
        sources.append(from_file)
    for source in sources:
        collected.extend(
            line.strip() for line in source if line.strip() and not line.startswith("#")
        )
    return collected


def _rule_json(verdict: Verdict | None) -> dict[str, Any] | None:
    if verdict is None or verdict.rule is None:
        return None
    rule = verdict.rule
    return {"kind": rule.kind.value, "pattern": rule.pattern, "line": rule.line}


def _local_line(url: str, verdict: Verdict, as_json: bool) -> str:
    if as_json:
        return json.dumps(
            {
                "url": url,
                "allowed": verdict.allowed,
                "outcome": "conditional",
                "status": None,
                "agent": verdict.agent,
                "rule": _rule_json(verdict),
                "reason": verdict.reason,
                "stale": False,
            }
        )
    return _human_line(url, verdict.allowed, verdict.reason)


def _decision_line(decision: Decision, as_json: bool) -> str:
    verdict = decision.verdict
    reason = decision.reason
    if as_json:
        return json.dumps(
            {
                "url": decision.url,
                "allowed": decision.allowed,
                "outcome": decision.outcome.value,
                "status": decision.status,
                "agent": verdict.agent if verdict else None,
                "rule": _rule_json(verdict),
                "reason": reason,
                "stale": decision.stale,
            }
        )
    return _human_line(decision.url, decision.allowed, reason)


def _human_line(url: str, allowed: bool, reason: str) -> str:
    mark = (
        click.style("allowed   ", fg="green")
        if allowed
        else click.style("disallowed", fg="red", bold=True)
    )
    return f"{mark} {url}  ({reason})"


def _error_line(url: str, error: Exception, as_json: bool) -> str:
    if as_json:
        return json.dumps({"url": url, "error": str(error)})
    return click.style("error     ", fg="yellow") + f" {url}  ({error})"


def _agent_for_parser(agent: str, token: str | None) -> str:
    return token or agent


@cli.command()
@click.argument("urls", nargs=-1)
@click.option(
    "--from-file",
    type=click.File("r", encoding="utf-8", errors="replace"),
    default=None,
    help="Read URLs from this file, one per line ('-' for standard input).",
)
@_agent_option
@_token_option
@_robots_option
@_json_option
@click.option("--concurrency", default=64, show_default=True, help="Origins fetched at once.")
def check(
    urls: tuple[str, ...],
    from_file: TextIO | None,
    agent: str,
    token: str | None,
    robots_file: Path | None,
    as_json: bool,
    concurrency: int,
) -> None:
    """Check URLs: one line each; exit 1 when any is disallowed."""
    targets = _read_urls(urls, from_file)
    if not targets:
        raise click.UsageError("no URLs given (pass URLs, '-' for standard input, or --from-file)")
    if robots_file is not None:
        robots = parse(robots_file.read_bytes())
        who = _agent_for_parser(agent, token)
        any_denied = False
        for url in _progress(targets):
            try:
                verdict = robots.explain(url, who)
            except InvalidArgument as error:
                raise click.UsageError(str(error)) from error
            any_denied |= not verdict.allowed
            click.echo(_local_line(url, verdict, as_json))
        sys.exit(1 if any_denied else 0)
    denied = asyncio.run(_check_online(targets, agent, token, as_json, concurrency))
    sys.exit(1 if denied else 0)


def _progress(urls: list[str]) -> Iterator[str]:
    """Iterate `urls`, drawing a progress bar on standard error when it is a terminal."""
    if len(urls) < _PROGRESS_MIN_URLS or not sys.stderr.isatty():
        yield from urls
        return
    with click.progressbar(urls, label="checking", file=sys.stderr) as bar:
        yield from bar


async def _check_online(
    urls: list[str], agent: str, token: str | None, as_json: bool, concurrency: int
) -> bool:
    from ._client import RobotsClient

    for url in urls:
        _validate_url(url)
    show_bar = len(urls) >= _PROGRESS_MIN_URLS and sys.stderr.isatty()
    denied = False
    async with RobotsClient(
        user_agent=agent, agent_token=token, max_concurrent_fetches=concurrency
    ) as client:
        tasks = [asyncio.ensure_future(client.check(url)) for url in urls]
        with (
            click.progressbar(length=len(tasks), label="checking", file=sys.stderr)
            if show_bar
            else _NoBar() as bar
        ):
            for url, task in zip(urls, tasks, strict=True):
                try:
                    decision = await task
                except InvalidArgument as error:
                    click.echo(_error_line(url, error, as_json))
                    denied = True
                    continue
                denied |= not decision.allowed
                click.echo(_decision_line(decision, as_json))
                bar.update(1)
    return denied


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, count: int) -> None:
        return None


def _validate_url(url: str) -> None:
    from ._origin import origin_of

    try:
        origin_of(url)
    except InvalidArgument as error:
        raise click.UsageError(str(error)) from error


@cli.command()
@click.argument("url")
@_agent_option
@_token_option
@_robots_option
@_json_option
def explain(
    url: str, agent: str, token: str | None, robots_file: Path | None, as_json: bool
) -> None:
    """Explain one decision: fetch outcome, cache age, group, and the deciding rule in context."""
    if robots_file is not None:
        data = robots_file.read_bytes()
        robots = parse(data)
        try:
            verdict = robots.explain(url, _agent_for_parser(agent, token))
        except InvalidArgument as error:
            raise click.UsageError(str(error)) from error
        if as_json:
            click.echo(_local_line(url, verdict, True))
        else:
            click.echo(f"URL:      {url}")
            click.echo(f"robots:   {robots_file} (local file, no fetch)")
            _echo_verdict(verdict, data)
        return
    _validate_url(url)
    decision, body = asyncio.run(_explain_online(url, agent, token))
    if as_json:
        click.echo(_decision_line(decision, True))
        return
    click.echo(decision.explain())
    if decision.verdict is not None and decision.verdict.rule is not None:
        click.echo("")
        _echo_context(body, decision.verdict.rule.line)


async def _explain_online(url: str, agent: str, token: str | None) -> tuple[Decision, bytes]:
    from ._client import RobotsClient

    async with RobotsClient(user_agent=agent, agent_token=token) as client:
        decision = await client.check(url)
        record = await client.robots(url)
        return decision, record.body


def _echo_verdict(verdict: Verdict, body: bytes) -> None:
    verb = (
        click.style("allowed", fg="green")
        if verdict.allowed
        else click.style("disallowed", fg="red", bold=True)
    )
    click.echo(f"verdict:  {verb}")
    group = ", ".join(verdict.group_agents) or "(none)"
    click.echo(f"group:    {group} (lines {', '.join(map(str, verdict.group_lines)) or '-'})")
    click.echo(f"reason:   {verdict.reason}")
    if verdict.rule is not None:
        click.echo("")
        _echo_context(body, verdict.rule.line)


def _echo_context(body: bytes, line: int, around: int = 2) -> None:
    """Show the deciding line with a little of the file around it, like a compiler would."""
    text = body.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number in range(max(1, line - around), min(len(text), line + around) + 1):
        marker = ">" if number == line else " "
        content = text[number - 1]
        if number == line:
            content = click.style(content, bold=True)
        click.echo(f"{marker} {number:5d} | {content}")


@cli.command()
@click.argument("target")
@click.option("--strict", is_flag=True, help="RFC 9309 keys only: misspellings are errors (D2).")
@_agent_option
@_json_option
def lint(target: str, strict: bool, agent: str, as_json: bool) -> None:
    """Lint a robots.txt FILE or the one of a URL's site; exit 1 when there are errors."""
    if target.lower().startswith(("http://", "https://")):
        _validate_url(target)
        record = asyncio.run(_fetch_online(target, agent))
        data, name = record.body, record.robots_url
    else:
        path = Path(target)
        if not path.is_file():
            raise click.UsageError(f"{target!r} is neither a file nor an http(s) URL")
        data, name = path.read_bytes(), target
    findings = parse(data, strict=strict).lint()
    errors = 0
    for finding in findings:
        errors += finding.severity is Severity.ERROR
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "file": name,
                        "line": finding.line,
                        "severity": finding.severity.value,
                        "code": finding.code,
                        "message": finding.message,
                    }
                )
            )
        else:
            colour = {"error": "red", "warning": "yellow", "info": "blue"}[finding.severity.value]
            severity = click.style(finding.severity.value, fg=colour, bold=True)
            click.echo(f"{name}:{finding.line}: {severity}: {finding.message} [{finding.code}]")
    if not as_json:
        click.echo(f"{len(findings)} finding(s), {errors} error(s)", err=True)
    sys.exit(1 if errors else 0)


async def _fetch_online(url: str, agent: str) -> RobotsRecord:
    from ._client import RobotsClient

    async with RobotsClient(user_agent=agent) as client:
        return await client.robots(url)


@cli.command()
@click.argument("url")
@_agent_option
@_json_option
def fetch(url: str, agent: str, as_json: bool) -> None:
    """Fetch a site's robots.txt and show the record: outcome, status, headers, size, sitemaps."""
    _validate_url(url)
    record = asyncio.run(_fetch_online(url, agent))
    robots = record.robots
    delay = robots.crawl_delay(agent) if robots is not None else None
    sitemaps = robots.sitemaps if robots is not None else []
    if as_json:
        click.echo(
            json.dumps(
                {
                    "url": record.robots_url,
                    "outcome": record.outcome.value,
                    "status": record.status,
                    "error": record.error,
                    "chain": list(record.chain),
                    "headers": dict(record.headers),
                    "size": len(record.body),
                    "truncated": record.truncated,
                    "sitemaps": sitemaps,
                    "crawl_delay": delay,
                    "fetched_at": record.fetched_at,
                }
            )
        )
        return
    click.echo(f"robots.txt: {record.robots_url}")
    click.echo(f"outcome:    {record.outcome.value}")
    click.echo(f"status:     {record.status if record.status is not None else '-'}")
    if record.error:
        click.echo(f"error:      {record.error}")
    if len(record.chain) > 1:
        click.echo("redirects:  " + " -> ".join(record.chain))
    click.echo(
        f"size:       {len(record.body)} bytes" + (" (cut at 512,000)" if record.truncated else "")
    )
    click.echo(f"crawl-delay: {delay if delay is not None else '-'}")
    for sitemap in sitemaps:
        click.echo(f"sitemap:    {sitemap}")
    for name, value in record.headers:
        click.echo(f"header:     {name}: {value}")


def main(argv: list[str] | None = None) -> None:
    """Run the command line (the `robotsclient` script and `python -m robotsclient`)."""
    cli.main(args=argv, prog_name="robotsclient")
