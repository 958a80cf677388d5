"""Decks of the held-out cards (ccg_env.configs.heldout.decks)."""
