"""Renderers (HTML, text, figures) and each lesson's explorer declaration, for Jupyter and the site."""
