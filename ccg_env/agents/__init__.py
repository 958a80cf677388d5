"""Agents that play ccg-env (random, heuristic, search, learned, a person at the terminal) and the arena."""

# The heuristic is compiled with the engine: importing the engine first decides, once for both, whether the
# compiled modules or their sources run (ccg_env.engine.native), before any agent module is looked up.
import ccg_env.engine  # noqa: F401
