"""The command line (`textmetrics-edu`) and the live site explorers."""
