"""Check a file of URLs (one per line, '-' for standard input) concurrently; print one JSON
object per URL and a summary. Exit status 1 when any URL is disallowed.

    python examples/check_urls.py urls.txt --agent ExampleBot/1.0
"""

import argparse
import asyncio
import json
import sys

from robotsclient import RobotsClient


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", help="file of URLs, or - for standard input")
    parser.add_argument("--agent", default="ExampleBot/1.0 (+https://example.com/bot)")
    args = parser.parse_args()
    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    with source:
        urls = [line.strip() for line in source if line.strip() and not line.startswith("#")]
    async with RobotsClient(args.agent) as robots:
        decisions = await asyncio.gather(*(robots.check(url) for url in urls))
    for decision in decisions:
        print(
            json.dumps(
                {"url": decision.url, "allowed": decision.allowed, "reason": decision.reason}
            )
        )
    denied = sum(not decision.allowed for decision in decisions)
    print(f"{len(decisions)} checked, {denied} disallowed", file=sys.stderr)
    return 1 if denied else 0


sys.exit(asyncio.run(main()))
