"""``python -m dipsat.cli``: the command line."""

from . import run

run()
