"""Default train data shipped as package data (ccg_env.configs.train)."""
