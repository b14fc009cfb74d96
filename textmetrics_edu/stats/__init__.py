"""Statistics over scores: significance, agreement, meta-evaluation, benchmarks, preferences."""
