"""Generate the bundled corpus of random games with the ``diplomacy`` package.

A development script: it runs the ``diplomacy`` package (AGPL-3.0) through dipsat's
peer adapter ``dipsat.peers.diplomacy``, which dipsat itself imports only when asked.
Install the optional extra first, then run::

    pip install '.[peers]'
    python scripts/make_corpus.py --games 200 --seed 2024 --min-years 4 --max-years 7 \\
        --out cases/corpus/random_games.jsonl.gz

(those are the defaults: the bundled corpus, 200 games of 4 to 7 years, about
3,800 phases in about 500 KB; byte-identical on every run, with diplomacy 1.1.2)
and check the result with ``dipsat validate cases/corpus/random_games.jsonl.gz``.
Games are cut at the end of their last year. The orders are random but biased so
that convoys, paradox-prone patterns, matching supports, ``VIA`` moves and civil
disorder occur (see the adapter's docstring).
"""

import sys

from dipsat.peers.diplomacy import main

if __name__ == "__main__":
    sys.exit(main())
