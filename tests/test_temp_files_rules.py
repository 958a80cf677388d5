"""Tests leave nothing behind: what a training test makes (SB3's logger folder, torch's compile cache) stays under the
test's own temporary path, never in the system temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("sb3_contrib")

TRAIN_A_LITTLE = textwrap.dedent("""
    import torch
    torch.set_num_threads(1)
    from ccg_env.training.train import load_config, make_model, make_vec_env
    config = load_config("smoke")
    model = make_model(config, make_vec_env(config, 2, "random"))
    model.learn(64)
""")


def test_rule_a_model_made_and_trained_in_a_test_leaves_the_system_temporary_folder_empty(tmp_path):
    system_tmp = tmp_path / "system-tmp"
    system_tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(system_tmp), "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", TRAIN_A_LITTLE], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(path.name for path in system_tmp.iterdir()) == []

