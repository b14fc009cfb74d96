"""The lessons' metric definitions: staged pure functions, results, each metric's `Metric` spec."""
