"""The two-tier cache for a fleet of crawlers: each worker answers from its own memory, all
workers share one Redis (or, without Redis, one directory), so each robots.txt is fetched once
for the whole fleet and survives restarts.

    python examples/fleet_cache.py --redis redis://127.0.0.1:6379/0 URL ...
    python examples/fleet_cache.py --directory /var/cache/robots URL ...
"""

import argparse
import asyncio

from robotsclient import FileStorage, RedisStorage, RobotsClient, TieredStorage


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("urls", nargs="+")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--redis", help="redis:// URL shared by the fleet")
    where.add_argument("--directory", help="cache directory shared by the workers of one machine")
    parser.add_argument("--agent", default="ExampleBot/1.0 (+https://example.com/bot)")
    args = parser.parse_args()
    shared = RedisStorage(args.redis) if args.redis else FileStorage(args.directory)
    async with RobotsClient(args.agent, cache=TieredStorage(shared)) as robots:
        for url in args.urls:
            decision = await robots.check(url)
            print(decision.allowed, url, decision.reason)


asyncio.run(main())
