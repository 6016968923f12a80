"""Scrapy settings that make a project obey robots.txt through robotsclient's parser.

Copy these lines into your project's settings.py.
"""

ROBOTSTXT_OBEY = True
ROBOTSTXT_PARSER = "robotsclient.scrapy.RobotsClientParser"
# The product token robots.txt groups are matched with (DECISIONS D4). Set it whenever the
# User-Agent header is browser-like ("Mozilla/5.0 (compatible; ExampleBot/1.0)").
ROBOTSTXT_USER_AGENT = "ExampleBot"
USER_AGENT = "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)"
