"""The language-model lessons' definitions: perplexity, n-gram models, next-token statistics."""
