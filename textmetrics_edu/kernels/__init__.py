"""Fast engines (vectorised, bit-parallel, cached, standard-library twins) behind the lessons' readable code."""
