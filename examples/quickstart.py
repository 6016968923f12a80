"""The README's 10-line example: check a few URLs, print the decision and its first reason line.

python examples/quickstart.py [URL ...]
"""

import asyncio
import sys

from robotsclient import RobotsClient

URLS = sys.argv[1:] or ["https://www.python.org/", "https://www.python.org/search/"]


async def main() -> None:
    async with RobotsClient("ExampleBot/1.0 (+https://example.com/bot)") as robots:
        for url in URLS:
            decision = await robots.check(url)
            print(decision.allowed, url, decision.explain().splitlines()[0])


asyncio.run(main())
