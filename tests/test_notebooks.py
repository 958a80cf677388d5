"""The notebooks execute top to bottom in small mode (CCG_NOTEBOOK_SMALL=1), and are committed with full-run outputs.

Each test executes an in-memory copy of a notebook with nbclient on the ``python3`` kernel, which
jupyter_client starts with this interpreter (so the kernel sees the same virtualenv); the committed files are
never written.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbclient
import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: Seconds one cell may run before nbclient gives up (a small run takes well under a minute in total).
CELL_TIMEOUT = 600
#: Saved notebooks stay small enough to review and to render on GitHub.
MAX_SAVED_BYTES = 1_000_000
#: Lines a full run of each notebook prints, so a saved notebook from an older version of it shows up as stale.
FULL_RUN_LINES = {
    "quickstart.ipynb": ["own_hand: 10 slots", "game over (", "TriggerAbility(player=0, card="],
    "heuristic_vs_learned.ipynb": ["full budget: 500,000 training steps",
                                   "continuing ccg_env/models/ppo_vs_heuristic.ccgmodel", "in a league",
                                   "search(iterations=8)", "search(48)", "standings after", "by seat",
                                   "learned vs heuristic", "learned vs random", "moving first", "moving second",
                                   "(arena: learned", "learned plays:", "heuristic plays:"],
}
#: A cell appended to the executed copy: it reports which Python runs the kernel.
PROBE = "import sys; print('KERNEL_PREFIX=' + sys.prefix)"


def ensure_python3_kernel(spec_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the ``python3`` kernelspec resolvable: ipykernel installs one into the venv; if it is missing, write
    one for this interpreter under ``spec_dir`` and put that on ``JUPYTER_PATH``."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        from ipykernel.kernelspec import write_kernel_spec

        write_kernel_spec(spec_dir / "kernels" / "python3")
        monkeypatch.setenv("JUPYTER_PATH", str(spec_dir))


def execute_small(name: str, runs_dir: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a copy of ``notebooks/<name>`` in small mode; return all its text outputs joined."""
    ensure_python3_kernel(runs_dir / "jupyter", monkeypatch)
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    monkeypatch.setenv("CCG_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("CCG_NOTEBOOK_RUNS_DIR", str(runs_dir))
    client = nbclient.NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    return "\n".join(_texts(notebook))


def _texts(notebook) -> list[str]:
    texts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            texts.append(output.get("text", "") or output.get("data", {}).get("text/plain", ""))
    return texts


def _output_types(notebook) -> set[str]:
    return {kind for cell in notebook.cells for output in cell.get("outputs", [])
            for kind in (output.get("data") or {})}


def test_quickstart_runs_in_small_mode(tmp_path, monkeypatch):
    text = execute_small("quickstart.ipynb", tmp_path, monkeypatch)
    assert f"KERNEL_PREFIX={sys.prefix}" in text, "the kernel must run in this interpreter's environment"
    assert "own_hand: 10 slots" in text and "end turn" in text  # observation pieces and the action layout
    assert "game over (win" in text or "game over (draw" in text  # the random-vs-heuristic game was rendered
    assert "TriggerAbility(player=0, card=" in text and "Reap(" in text  # the lesson's reaction tree


def test_heuristic_vs_learned_runs_in_small_mode(tmp_path, monkeypatch):
    text = execute_small("heuristic_vs_learned.ipynb", tmp_path, monkeypatch)
    assert "small budget" in text
    run_dir = tmp_path / "notebook_heuristic_vs_learned"
    assert (run_dir / "eval.csv").is_file() and (run_dir / "model.zip").is_file()
    assert (run_dir / "league.csv").is_file() and "standings after 4,096 steps" in text
    assert (run_dir / "arena" / "winrate_matrix.png").is_file()
    opponents = [line.split()[2] for line in text.splitlines() if line.strip().startswith(("0 ", "2,048 ", "4,096 "))
                 and len(line.split()) == 6]
    assert opponents == ["heuristic", "search(iterations=2)"] * 3  # the curve starts at the loaded model
    assert "(arena: learned" in text and "by seat" in text
    assert "learned vs heuristic" in text and "learned vs random" in text and "moving second" in text
    assert "learned plays:" in text and "heuristic plays:" in text  # at least one differing decision shown


@pytest.mark.parametrize("name", ["quickstart.ipynb", "heuristic_vs_learned.ipynb"])
def test_saved_notebooks_hold_full_run_outputs(name):
    path = NOTEBOOKS / name
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.get("outputs") for cell in code[-3:]), f"{name}: saved without outputs; run it and save"
    assert not any(o.get("output_type") == "error" for c in code for o in c.outputs), f"{name}: saved with an error"
    assert "image/png" in _output_types(notebook), f"{name}: its plots are missing"
    text = "\n".join(_texts(notebook))
    assert "small budget" not in text, f"{name}: saved from a small-mode run"
    missing = [line for line in FULL_RUN_LINES[name] if line not in text]
    assert not missing, f"{name}: saved outputs lack {missing}; rerun it and save"
    assert path.stat().st_size < MAX_SAVED_BYTES, f"{name}: {path.stat().st_size} bytes; shrink the images"
