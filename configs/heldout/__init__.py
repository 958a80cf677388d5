"""Held-out cards and decks shipped as package data (ccg_env.configs.heldout): never part of the packaged card set."""
