"""Default heroes data shipped as package data (ccg_env.configs.heroes)."""
