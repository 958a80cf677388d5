"""SB3 training: configs (``train_config``), the run (``train``), policies and league opponents.

Nothing here is imported by the engine or the env layer; the modules import torch and stable-baselines3 only
where they are used.
"""
