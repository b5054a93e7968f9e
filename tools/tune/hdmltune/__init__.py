"""hdml-tune's pieces: the search space, the measurement log, apply."""
