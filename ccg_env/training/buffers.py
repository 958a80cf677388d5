"""MaskablePPO's rollout buffer, handing each minibatch to torch without copying it a second time.

sb3-contrib's ``MaskableRolloutBuffer`` cuts a minibatch out of the rollout with numpy fancy indexing (a fresh
array) and then converts it with ``torch.tensor``, which copies it again. For the default config's minibatch of
2,048 observations of 4,889 floats (40 MB) the second copy took about 26 ms on this machine with one torch
thread, against 6 ms for numpy's copy of the same array: a sixth of an update step (benchmarks/README.md). Here
the fresh arrays become tensors that share their memory, so the samples are the same values, copied once.
"""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer


class OneCopyRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` whose samples share memory with the arrays fancy indexing already copied."""

    def to_torch(self, array: np.ndarray, copy: bool = False) -> torch.Tensor:
        """``array`` as a tensor without a copy: every array ``_get_samples`` passes is a fresh fancy-indexed
        copy of the rollout, so sharing it cannot alias the buffer."""
        return torch.as_tensor(array, device=self.device)
