"""A small polite crawler: one httpx client whose transport enforces robots.txt and spaces
requests to each site by its crawl-delay. Follows links breadth-first, a few pages per site.

    python examples/crawler.py https://example.com/ https://example.org/ --pages 5
"""

import argparse
import asyncio
import re
from urllib.parse import urljoin, urlsplit

import httpx

from robotsclient import Disallowed, RobotsClient, RobotsTransport

LINK = re.compile(r'href="([^"#]+)"')


async def crawl_site(client: httpx.AsyncClient, start: str, pages: int) -> None:
    site = urlsplit(start).netloc
    queue, seen = [start], {start}
    while queue and pages > 0:
        url = queue.pop(0)
        try:
            response = await client.get(url)
        except Disallowed as refused:
            print(f"skipped   {url}  ({refused.decision.reason})")
            continue
        except httpx.HTTPError as error:
            print(f"failed    {url}  ({error!r})")
            continue
        pages -= 1
        print(f"fetched   {url}  {response.status_code}")
        for link in LINK.findall(response.text):
            target = urljoin(url, link)
            if urlsplit(target).netloc == site and target not in seen:
                seen.add(target)
                queue.append(target)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sites", nargs="+")
    parser.add_argument("--pages", type=int, default=5, help="pages per site")
    parser.add_argument("--agent", default="ExampleBot/1.0 (+https://example.com/bot)")
    parser.add_argument(
        "--default-delay", type=float, default=1.0, help="seconds, without crawl-delay"
    )
    args = parser.parse_args()
    async with RobotsClient(args.agent) as robots:
        transport = RobotsTransport(robots, polite=True, default_delay=args.default_delay)
        headers = {"User-Agent": args.agent}
        async with httpx.AsyncClient(transport=transport, headers=headers, timeout=10) as client:
            await asyncio.gather(*(crawl_site(client, site, args.pages) for site in args.sites))


asyncio.run(main())
