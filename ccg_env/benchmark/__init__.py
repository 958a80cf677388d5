"""The benchmark's packaged data: the ladder's reference pools (``pool_v1.yaml``), read by :mod:`ccg_env.agents.pool`."""
