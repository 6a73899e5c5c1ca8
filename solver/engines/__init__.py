"""Other adjudicators as engines: the engine protocol (docs/engines.md) and the programs
that speak it for dipsat (``dipsat fuzz --against ENGINE``). At the edge: nothing in the
core imports this package."""
