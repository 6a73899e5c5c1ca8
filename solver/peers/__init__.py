"""Other adjudicators behind adapters, each imported only when asked for."""
