"""What a result says, for people: the text report, explanations, every resolution, rule
comparisons, board pictures and the map reference. Printers read values; they decide nothing."""
