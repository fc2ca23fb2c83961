#!/usr/bin/env python3
"""Reads swift-argument-parser's `--experimental-dump-help` JSON on stdin and writes what generate-manual (1.8.2)
should get (Scripts/man-pages.sh):

- without the commands and arguments the tool hides from `--help` (shouldDisplay false): generate-manual would
  list hidden subcommands;
- text in ASCII: generate-manual silently drops every other character ("1024–67108864" would read "102467108864");
- a blank line in a discussion (a paragraph break) as an mdoc `.Pp` line: generate-manual copies it as an empty
  input line, which groff warns about.
"""

import json
import sys
import unicodedata

ASCII = {
    "\u2013": "-", "\u2014": "--", "\u2212": "-", "\u2010": "-", "\u2026": "...", "\u2192": "->", "\u2190": "<-",
    "\u2264": "<=", "\u2265": ">=", "\u00d7": "x", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
    "\u00a0": " ",
}


def ascii_text(text: str) -> str:
    """Punctuation spelled in ASCII, accents dropped (é → e)."""
    text = "".join(ASCII.get(character, character) for character in text)
    return text if text.isascii() else unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def paragraphs(text: str) -> str:
    lines = [line.rstrip() for line in text.split("\n")]
    out: list[str] = []
    for line in lines:
        if line:
            out.append(line)
        elif out and out[-1] != ".Pp":
            out.append(".Pp")
    while out and out[-1] == ".Pp":
        out.pop()
    return "\n".join(out)


def clean(value, key: str = ""):
    if isinstance(value, str):
        value = ascii_text(value)
        return paragraphs(value) if key == "discussion" else value
    if isinstance(value, list):
        return [clean(item, key) for item in value]
    if isinstance(value, dict):
        return {name: clean(item, name) for name, item in value.items()}
    return value


def visible(command: dict) -> dict:
    # An absent list stays absent: generate-manual shows "subcommand" in the synopsis whenever the key is there.
    for key, keep in (("subcommands", visible), ("arguments", lambda argument: argument)):
        if key in command:
            shown = [keep(item) for item in command[key] if item.get("shouldDisplay", True)]
            if shown:
                command[key] = shown
            else:
                del command[key]
    return command


info = clean(json.load(sys.stdin))
info["command"] = visible(info["command"])
json.dump(info, sys.stdout)
