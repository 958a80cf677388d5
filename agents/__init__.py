"""Agents that play ccg-env (random, heuristic, search, learned, a person at the terminal) and the arena."""
