"""Default decks data shipped as package data (ccg_env.configs.decks)."""
