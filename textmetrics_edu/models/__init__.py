"""Learned and neural metrics (encoders, BERTScore, COMET-style, MAUVE, a small LM), optional dependencies."""
