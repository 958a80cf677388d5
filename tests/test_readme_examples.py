"""Every ```python block of README.md runs as written (blocks marked '# no-test: reason' are skipped; the other docs'
blocks and every shell command run in tests/test_doc_commands.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_doc_commands import fenced_blocks

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """Return (line number, code) of every fenced ```python block in a Markdown file."""
    return [(block.line, block.text) for block in fenced_blocks(path) if block.language == "python"]


def run_block(code: str, where: str) -> None:
    """Run a code block in a fresh interpreter from the repository root, as a reader would."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (f"{where} failed (mark blocks that are not meant to run with '# no-test'):\n"
                                  f"{done.stderr[-3000:]}")


README_BLOCKS = [(line, code) for line, code in python_blocks(README) if "# no-test" not in code]


@pytest.mark.parametrize("line, code", README_BLOCKS, ids=[f"README.md:{line}" for line, _ in README_BLOCKS])
def test_readme_python_block_runs(line, code):
    run_block(code, f"README.md line {line}")


def test_readme_aec_example_finishes_a_game():
    blocks = [(line, code) for line, code in python_blocks(README) if "agent_iter()" in code]
    assert len(blocks) == 1, "README.md should show one random-vs-random agent_iter() example"
    line, code = blocks[0]
    run_block(code + "\nassert info['result'] in ('win', 'draw', 'turn_limit'), info\n", f"README.md line {line}")


def test_python_blocks_are_found_with_their_line_numbers(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# t\n\n```python\nx = 1\n```\n\n```sh\nls\n```\n```python\ny = 2  # no-test\n```\n")
    assert python_blocks(page) == [(3, "x = 1\n"), (10, "y = 2  # no-test\n")]
