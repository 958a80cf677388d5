"""Default cards data shipped as package data (ccg_env.configs.cards)."""
