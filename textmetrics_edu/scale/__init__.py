"""Scoring at scale: partitions, map-reduce of the metrics' statistics, engines (Dask, Spark)."""
