#!/usr/bin/env python3
"""An engine for ``dipsat fuzz --against cmd:...``: dipsat itself, under the rules given.

    dipsat fuzz --against 'cmd:python docs/engines/dipsat_engine.py --rules 1971'

Reads one request per line on standard input, writes one reply per line on standard
output (docs/engines.md). Under the rules dipsat fuzz judges by, it agrees on every phase;
under another profile every difference is one of that profile's readings: inferred where
the run shows it in two phases or more, else a disagreement whose note names the option.
"""

from __future__ import annotations

import argparse
import json
import sys

import dipsat
from dipsat.engines.protocol import ReplyError, read_request, reply_json
from dipsat.rules import Rules


def answer(line: str, rules: Rules) -> dict:
    try:
        request_id, state, orders = read_request(line)
    except ReplyError as exc:  # every request gets a reply: an error is one too
        return {"id": None, "error": str(exc)}
    result = dipsat.adjudicate(state, orders, rules)
    succeeded = {k: r.succeeded for k, r in enumerate(result.results)}
    return reply_json(request_id, result.after, result.retreat_options, succeeded)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="2000", help="a dipsat rules profile (default 2000)")
    rules = Rules.profile(parser.parse_args().rules)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(answer(line, rules), separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
