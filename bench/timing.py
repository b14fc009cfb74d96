"""Shared by the bench scripts (run as `.venv/bin/python bench/<script>.py`: this folder is on sys.path)."""
import time


def best(f, repeats):
    "The best CPU time (`time.process_time`, seconds) of `repeats` calls of `f()`."
    ts = []
    for _ in range(repeats):
        t = time.process_time(); f(); ts.append(time.process_time() - t)
    return min(ts)
