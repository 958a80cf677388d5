"""Old home of :mod:`ccg_env.training.policy`, kept because model files saved before the move name its classes.

SB3 records a model's policy class by module path (``ccg_env.policy.SlotPolicy`` in
``models/ppo_vs_heuristic.zip``), so this module must stay importable for such files to load.
"""

from .training.policy import PairwiseActionHead, ScaledFlattenExtractor, SlotEncoderExtractor, SlotPolicy, input_gain

__all__ = ["PairwiseActionHead", "ScaledFlattenExtractor", "SlotEncoderExtractor", "SlotPolicy", "input_gain"]
