#!/usr/bin/env python3
"""Did a page fetch anything? Reads a Chromium --log-net-log file and lists the requests the page
made (network isolation key of the file:// page) to anything but file: or data: URLs. The
browser's own background requests (update checks, time sync) carry no page's key and are not
the page's doing. Exit 0 when the page fetched nothing, 1 when it did (each URL printed), 2 when
the file cannot be read as a net log.

usage: netlog_check.py NETLOG.json
"""
import json
import sys


def page_requests(netlog):
    urls = set()
    for event in netlog.get("events", []):
        params = event.get("params")
        if not isinstance(params, dict) or "url" not in params:
            continue
        if not str(params.get("network_isolation_key", "")).startswith("file://"):
            continue
        url = str(params["url"])
        if not (url.startswith("file:") or url.startswith("data:")):
            urls.add(url)
    return sorted(urls)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            netlog = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{sys.argv[1]}: not a readable net log: {e}", file=sys.stderr)
        return 2
    urls = page_requests(netlog)
    for url in urls:
        print(f"page fetched {url}")
    print(f"{len(netlog.get('events', []))} net log events, {len(urls)} page request(s) off file://")
    return 1 if urls else 0


if __name__ == "__main__":
    sys.exit(main())
