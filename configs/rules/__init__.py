"""Default rules data shipped as package data (ccg_env.configs.rules)."""
