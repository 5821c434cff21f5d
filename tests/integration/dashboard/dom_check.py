#!/usr/bin/env python3
"""Did text from a row become markup? Reads a DOM that Chromium serialised (--dump-dom) and lists
what a page of fabricgate's never holds: an element that runs, loads or submits (script, img,
iframe, frame, object, embed, form, input, button, link, base, meta refresh), an event-handler
attribute (on*), or a javascript:/data: URL in href, src, action or xlink:href. Text a row brought
in is fine where it stays text or an attribute's value: html.parser reads those as such, so a
quoted "<img ...>" inside data-host="..." is not an element.
Exit 0 when clean, 1 when not (each finding printed), 2 when the file cannot be read.

usage: dom_check.py DOM.html
"""
import sys
from html.parser import HTMLParser

FORBIDDEN = {"script", "img", "iframe", "frame", "object", "embed", "form", "input", "button",
             "link", "base", "audio", "video", "source", "portal", "foreignobject"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.findings = []

    def handle_starttag(self, tag, attrs):
        if tag in FORBIDDEN:
            self.findings.append("element <%s> %r" % (tag, attrs[:3]))
        for name, value in attrs:
            value = (value or "").strip().lower()
            if name.startswith("on"):
                self.findings.append("event handler %s=%r on <%s>" % (name, value[:80], tag))
            if name in URL_ATTRIBUTES and value.startswith(("javascript:", "data:", "vbscript:")):
                self.findings.append("%s=%r on <%s>" % (name, value[:80], tag))
            if tag == "meta" and name == "http-equiv" and value == "refresh":
                self.findings.append("<meta http-equiv=refresh>")


def main():
    try:
        text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    except (IndexError, OSError) as e:
        print("dom_check: %s" % e)
        return 2
    checker = Checker()
    checker.feed(text)
    checker.close()
    for f in checker.findings:
        print(f)
    return 1 if checker.findings else 0


if __name__ == "__main__":
    sys.exit(main())
