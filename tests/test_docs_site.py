"""The documentation site (mkdocs.yml, docs/) builds with ``mkdocs build --strict``: a broken link, a page missing from
the nav, a bad anchor or an API reference that does not resolve fails here.

mkdocs-material and mkdocstrings come with the ``dev`` extra. Without them the tests skip with one line, except where
CI's CCG_ENV_REQUIRE_BROWSER=1 (or CCG_ENV_REQUIRE_DOCS=1) is set: there a missing mkdocs is a failure.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = any(os.environ.get(name) == "1" for name in ("CCG_ENV_REQUIRE_BROWSER", "CCG_ENV_REQUIRE_DOCS"))


def importable(name: str) -> bool:
    """Whether ``name`` (a module, possibly dotted) can be imported, without importing it."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


MISSING = [name for name in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")
           if not importable(name)]

if MISSING:
    REASON = f"the docs site needs {', '.join(MISSING)}: pip install -e '.[dev]'"
    if REQUIRED:
        pytest.fail(f"CCG_ENV_REQUIRE_BROWSER or CCG_ENV_REQUIRE_DOCS is 1 but {REASON}", pytrace=False)
    pytest.skip(REASON, allow_module_level=True)


def build(config: Path, site: Path) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of a config into ``site``, as CI runs it."""
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
                           "--site-dir", str(site)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built from the repository's mkdocs.yml (the build must pass strict mode with no warning)."""
    folder = tmp_path_factory.mktemp("site")
    done = build(ROOT / "mkdocs.yml", folder)
    output = done.stdout + done.stderr
    warnings = [line for line in output.splitlines() if "WARNING" in line or "ERROR" in line]
    assert done.returncode == 0 and not warnings, f"mkdocs build --strict failed:\n" + "\n".join(warnings or
                                                                                               [output[-3000:]])
    return folder


def test_every_docs_page_is_built(site):
    pages = sorted(path.relative_to(ROOT / "docs").with_suffix("") for path in (ROOT / "docs").rglob("*.md"))
    assert pages, "docs/ has no pages"
    for page in pages:
        built = site / (page.parent if page.name == "index" else page) / "index.html"
        assert built.is_file(), f"docs/{page}.md was not built into {built.relative_to(site)}"


@pytest.mark.parametrize("page, names", [
    ("api/environments", ["ccg_env.env.aec.env", "ccg_env.env.aec.raw_env", "ccg_env.env.gym_env.CcgDuelEnv",
                          "ccg_env.env.vector", "ccg_env.env.versions.spec_hash"]),
    ("api/env-core", ["ccg_env.env.core.EnvCore", "ccg_env.env.core.Step"]),
    ("api/engine", ["ccg_env.engine.game.Game"]),
    ("api/agents", ["ccg_env.agent_api.make_agent", "ccg_env.agents.heuristic"]),
    ("api/arena", ["ccg_env.agents.arena.run_tournament", "ccg_env.agents.stats", "ccg_env.agents.ladder.run_ladder"]),
    ("api/models", ["ccg_env.saved_policy.load_model", "ccg_env.model_file.read_metadata"]),
])
def test_the_api_reference_documents_the_public_api(site, page, names):
    html = (site / page / "index.html").read_text(encoding="utf-8")
    for name in names:
        assert f'id="{name}"' in html, f"{page}: no entry for {name} (mkdocstrings did not render it)"


def test_the_benchmarks_record_is_the_whole_benchmarks_readme(site):
    html = (site / "benchmarks-record" / "index.html").read_text(encoding="utf-8")
    first_heading = next(line for line in (ROOT / "benchmarks/README.md").read_text().splitlines()
                         if line.startswith("## "))
    assert first_heading[3:].split(" (")[0] in html and "--8&lt;--" not in html


def test_a_broken_link_an_unlisted_page_and_a_bad_anchor_each_fail_the_build(tmp_path):
    """The strictness the site relies on, through the repository's own settings (a child config inherits them)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[gone](missing.md), [nowhere](other.md#no-such-heading)\n")
    (docs / "other.md").write_text("# Other\n")
    (docs / "unlisted.md").write_text("# Unlisted\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: {docs}\nnav:\n  - index.md\n  - other.md\n"
                      "plugins:\n  - search\n")
    done = build(config, tmp_path / "site")
    output = done.stdout + done.stderr
    assert done.returncode != 0, output[-3000:]
    for named in ("missing.md", "#no-such-heading", "unlisted.md"):
        assert named in output, f"strict build did not report {named}:\n{output[-3000:]}"


def test_the_readme_links_to_files_that_exist():
    """README.md is not part of the site, so mkdocs does not check its links: every relative one names a file here."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [target.split("#")[0] for target in re.findall(r"\]\(([^)\s]+)\)", text)
               if "://" not in target and not target.startswith("#")]
    assert targets, "README.md links to no page"
    missing = [target for target in targets if not (ROOT / target).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"
