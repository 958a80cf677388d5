"""Default ccg-env data shipped as package data (ccg_env.configs)."""
