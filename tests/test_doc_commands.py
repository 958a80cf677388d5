"""Every fenced shell command of README.md and docs/ (its pages in sub-folders too), and every Python block of docs/,
runs as a reader would.

Each command is looked up in a table: run, shrunk by the substitutions listed with it (fewer games, fewer steps:
each must apply, so a changed command fails here until the table follows), or not run, with the reason and, where
one exists, the test that runs it instead. A new command or block that the tables do not list fails
``test_every_doc_block_is_run_or_listed``. README.md's own Python blocks run in tests/test_readme_examples.py.
The commands run in a temp folder holding links to the repository's data (configs/, benchmarks/ and
ccg_env/models/), so they write nothing into the repository; ``.venv/bin/`` is the running Python's own folder.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SHELL_LANGUAGES = ("sh", "bash", "shell", "console")
DATA_LANGUAGES = ("yaml", "text", "json")  # examples of files and output, not commands
LINKED = ("configs", "benchmarks", "ccg_env/models")
COMMAND_TIMEOUT = 600


@dataclass(frozen=True)
class Run:
    """Run it, after each substitution ``(old, new)`` (``{port}``: a free port), with ``stdin``; ``needs``: commands
    whose files it reads, run first; ``expect``: text its output must hold; ``serves``: a server, stopped once it
    answers a request; ``exit_status``: the status it must end with (``ccg-env balance`` ends with 1 while a bound
    fails)."""

    shrink: tuple[tuple[str, str], ...] = ()
    stdin: str = ""
    needs: tuple[str, ...] = ()
    expect: str = ""
    serves: bool = False
    files: dict[str, str] = field(default_factory=dict)
    slow: bool = False
    exit_status: int = 0


@dataclass(frozen=True)
class NotRun:
    """Not run here, for ``reason``; ``covered_by``: a test file that runs it instead."""

    reason: str
    covered_by: str = ""


ONE_WORKER = ("--workers 2", "--workers 1")
TRAIN = ".venv/bin/ccg-env train --config ppo_vs_heuristic"
PLAY = ".venv/bin/ccg-env play --opponent search --save game.json"
DATASET = "nice -n 19 .venv/bin/ccg-env dataset --agent heuristic --decisions 100000 --out datasets"
BC = ".venv/bin/ccg-env bc datasets/duel-heuristic-v0 --out bc_heuristic.ccgmodel"
#: The default config shrunk to seconds: fewer envs and steps, two small evaluations, no imitation warm start.
TRAIN_SHRINK = (("ppo_vs_heuristic", "ppo_vs_heuristic --set total_timesteps=512 --set num_envs=4 --set n_steps=64 "
                 "--set batch_size=128 --set eval_every=256 --set eval_games=14 --set eval_envs=7 "
                 "--set 'imitation={}' --set async_rollouts=false"),)

#: ccg-env exploit shrunk to seconds: a tiny network on a few envs, no warm start, two games per snapshot.
EXPLOIT_SHRINK = ("--games 2 --workers 1 --set policy=mlp --set 'policy_kwargs={}' --set net_arch=[16] "
                  "--set num_envs=4 --set n_steps=16 --set batch_size=64 --set 'imitation={}' "
                  "--set async_rollouts=false")

#: README.md's Install commands: not run here.
WHEELS = ("builds dist/ in the repository and installs into an environment: CI's `make wheel-smoke` builds the "
          "wheels and installs each into a fresh virtualenv (tests/packaging/test_installed_data.py builds the pure one)")

#: Every shell command of README.md and docs/ (continuation lines joined, comments dropped) and what is done with it.
COMMANDS: dict[str, Run | NotRun] = {
    "make run": Run(shrink=(("make run", ".venv/bin/ccg-env arena --games 2 --workers 1"),),
                    expect="results written to"),  # the recipe after `make build`, which installed what runs here
    "make test": NotRun("runs the whole suite, this test included; CI runs it (.ci/run)"),
    ".venv/bin/ccg-env arena --agents random heuristic search --games 980": Run(
        shrink=(("--games 980", "--games 2 --workers 1"),), expect="results written to"),
    PLAY: Run(stdin="0\n" * 40, expect="replay saved to game.json"),
    TRAIN: Run(shrink=TRAIN_SHRINK, expect="model.ccgmodel", slow=True),
    ".venv/bin/ccg-env evaluate runs/ppo_vs_heuristic": Run(
        shrink=(("runs/ppo_vs_heuristic", "runs/ppo_vs_heuristic --games 14 --envs 7"),), needs=(TRAIN,),
        expect="best:", slow=True),
    ".venv-rllib/bin/ccg-env train --backend rllib --config rllib_selfplay": NotRun(
        "needs .venv-rllib (Ray)", covered_by="tests/rllib/test_cli_runs.py"),
    ".venv/bin/ccg-env replay game.json": Run(needs=(PLAY,), expect="The game begins"),
    ".venv/bin/ccg-env view game.json -o game.html": Run(needs=(PLAY,), expect="wrote game.html"),
    ".venv/bin/ccg-env serve --opponent heuristic": Run(
        shrink=(("--opponent heuristic", "--opponent heuristic --port {port}"),), serves=True),
    ".venv/bin/ccg-env model inspect ccg_env/models/ppo_vs_heuristic.ccgmodel": Run(expect="SlotPolicy"),
    ".venv/bin/ccg-env arena --mode draft --agents heuristic heuristic:draft=random": Run(
        shrink=(("heuristic:draft=random", "heuristic:draft=random --games 2 --workers 1"),),
        expect="results written to"),
    ".venv/bin/ccg-env deck build --hero mage --strategy aggro --out mage.yaml": Run(
        expect="wrote mage.yaml: deck 'mage_aggro', hero mage"),
    ".venv/bin/ccg-env arena --agents learned heuristic random --games 980 --workers 2": Run(
        shrink=(("--games 980", "--games 2"), ONE_WORKER), expect="results written to"),
    ".venv/bin/ccg-env arena --agents learned search --games 392 --workers 2": Run(
        shrink=(("--games 392", "--games 2"), ONE_WORKER), expect="results written to"),
    ".venv/bin/ccg-env arena --agents guided_search:time_limit=0.05,name=guided search:time_limit=0.05,name=plain "
    "--games 98 --workers 1": Run(shrink=(("--games 98", "--games 2"),), expect="results written to", slow=True),
    ".venv/bin/ccg-env arena --mode draft --agents heuristic heuristic:draft=random --games 1000 --workers 1": Run(
        shrink=(("--games 1000", "--games 2"),), expect="results written to"),
    ".venv/bin/ccg-env arena --agents learned:path=runs/ppo_vs_heuristic/model.ccgmodel heuristic random "
    "--games 1000 --workers 2": Run(shrink=(("--games 1000", "--games 2"), ONE_WORKER), needs=(TRAIN,),
                                     expect="results written to", slow=True),
    ".venv/bin/ccg-env arena --agents search:iterations=192,name=search192 search --games 392 --workers 2": Run(
        shrink=(("iterations=192", "iterations=16"), ("--games 392", "--games 2"), ONE_WORKER),
        expect="results written to"),
    ".venv/bin/ccg-env arena --agents search:iterations=768,name=search768 search heuristic --games 196 "
    "--workers 2": Run(shrink=(("iterations=768", "iterations=16"), ("--games 196", "--games 2"), ONE_WORKER),
                       expect="results written to"),
    ".venv/bin/ccg-env balance --games 490": Run(shrink=(("--games 490", "--games 49"),), expect="first seat",
                                                 exit_status=1),
    ".venv/bin/ccg-env balance --agent search:iterations=48 --games 196 --workers 2": Run(
        shrink=(("iterations=48", "iterations=4"), ("--games 196", "--games 49"), ONE_WORKER), expect="first seat",
        exit_status=1),
    ".venv/bin/ccg-env ladder random --quick": Run(
        shrink=(("--quick", "--quick --games 2 --workers 1 --bootstrap-samples 20"),), expect="results written to"),
    ".venv/bin/ccg-env ladder search:iterations=48 --leaderboard LEADERBOARD.md": NotRun(
        "a default ladder run (minutes); the same command, shrunk, with --leaderboard",
        covered_by="tests/agents/test_ladder.py"),
    ".venv/bin/ccg-env ladder ccg_env/models/ppo_vs_heuristic.ccgmodel --quick": Run(
        shrink=(("--quick", "--quick --games 2 --workers 1 --bootstrap-samples 20"),), expect="results written to"),
    ".venv/bin/ccg-env exploit heuristic --minutes 30 --checkpoints 6 --leaderboard LEADERBOARD.md": Run(
        shrink=(("--minutes 30 --checkpoints 6", f"--minutes 0.05 --checkpoints 2 {EXPLOIT_SHRINK}"),),
        expect="exploitability row added to LEADERBOARD.md"),
    ".venv/bin/ccg-env exploit search:iterations=48 --minutes 30": Run(
        shrink=(("iterations=48", "iterations=2"), ("--minutes 30", f"--minutes 0.05 {EXPLOIT_SHRINK}")),
        expect="results written to"),
    "nice -n 10 .venv/bin/python benchmarks/fit_pool.py --games 42 --heavy-games 8 --workers 2": NotRun(
        "fits the packaged pool (30 minutes) and rewrites ccg_env/benchmark/pool_v1.yaml; a three-member fit into a "
        "temporary file runs instead", covered_by="tests/agents/test_ladder.py"),
    ".venv/bin/ccg-env arena --cards generated:seed=7,size=60 --agents heuristic random --games 98 --workers 1": Run(
        shrink=(("--games 98", "--games 2"),), expect="results written to"),
    ".venv/bin/ccg-env arena --cards configs/heldout/cards.yaml --decks configs/heldout/decks/mage.yaml "
    "configs/heldout/decks/warrior.yaml --agents heuristic random --games 8 --workers 1": Run(
        shrink=(("--games 8", "--games 2"),), expect="results written to"),
    ".venv/bin/python benchmarks/generated_fairness.py --pools 8 --size 60 --games-per-pair 10 --workers 2": NotRun(
        "the fairness measurement (2 minutes); its figures from known games and a tiny run are tested",
        covered_by="tests/cards/test_generated_pools.py"),
    DATASET: Run(shrink=(("--decisions 100000", "--decisions 40"),), expect="wrote duel-heuristic-v0"),
    "MINARI_DATASETS_PATH=datasets .venv/bin/python -c \"import minari; d = minari.load_dataset('duel-heuristic-v0'); "
    "print(d.total_episodes, 'games,', d.total_steps, 'decisions')\"": Run(needs=(DATASET,), expect="decisions"),
    ".venv/bin/ccg-env replay datasets/duel-heuristic-v0/replays/episode_0.json": Run(needs=(DATASET,),
                                                                                      expect="The game begins"),
    BC: Run(shrink=(("--out", "--epochs 1 --out"),), needs=(DATASET,), expect="wrote bc_heuristic.ccgmodel"),
    ".venv/bin/ccg-env arena --agents learned:path=bc_heuristic.ccgmodel heuristic --games 392 --workers 2": Run(
        shrink=(("--games 392", "--games 2"), ONE_WORKER), needs=(BC,), expect="results written to"),
    ".venv/bin/mkdocs build --strict": NotRun("builds this site from the repository's mkdocs.yml",
                                              covered_by="tests/test_docs_site.py"),
    **{command: NotRun(WHEELS, covered_by="tests/packaging/wheel_smoke.py") for command in (
        "make wheels", "pip install dist/ccg_env-1.0.0-cp311-cp311-linux_x86_64.whl",
        "pip install dist/ccg_env-1.0.0-py3-none-any.whl", 'pip install "dist/ccg_env-1.0.0-py3-none-any.whl[train]"')},
}

#: Files of the user's own that docs/cards.md's first example loads.
MY_DATA = {
    "my_cards.yaml": "cards:\n  - {id: river_troll, name: River Troll, type: minion, cost: 3, attack: 3, health: 4}\n",
    "my_deck.yaml": "name: Mine\ncards:\n" + "".join(f"  {card}: 2\n" for card in (
        "wisp", "river_crocolisk", "bloodfen_raptor", "magma_rager", "chillwind_yeti", "boulderfist_ogre",
        "core_hound", "goldshire_footman", "senjin_shieldmasta", "bluegill_warrior", "wolfrider", "river_troll",
        "acidic_swamp_ooze", "mad_bomber", "wild_pyromancer")),
    "my_rules.yaml": "max_hand: 9\n",
}

#: Every Python block of docs/, by its file and a line of it, and what is done with it.
PYTHON: dict[tuple[str, str], Run | NotRun] = {
    ("docs/getting-started.md", 'game = Game.new(seed=0, decks=["aggro", "midrange"])'): Run(),
    ("docs/getting-started.md", "env = ccg_env.env(seed=42)"): Run(),
    ("docs/getting-started.md", "rng = np.random.default_rng(0)"): Run(),
    ("docs/getting-started.md", "raw = ccg_env.raw_env(**config)"): NotRun(
        "a summary of the public API with placeholders ({...}, **config, choice), not a script"),
    ("docs/security.md", 'agent = LearnedAgent("ccg_env/models/ppo_vs_heuristic.ccgmodel")'): Run(),
    ("docs/cards.md", "cards = load_cards([*default_cards().sources"): Run(files=MY_DATA),
    ("docs/cards.md", "draft = Draft(default_cards(), Rules.load(), seed=0)"): Run(),
    ("docs/cards.md", 'game = Game.new_draft(0, hero_classes=["mage", "warrior"])'): Run(),
    ("docs/training.md", 'mine = load_model("runs/ppo_vs_heuristic/model.ccgmodel")'): Run(needs=(TRAIN,),
                                                                                        slow=True),
    ("docs/versions.md", 'duel = gym.make("ccg_env/Duel-v1", opponent="heuristic")'): Run(),
    ("docs/generated-cards.md", 'pool = resolve_cards("generated:seed=7,size=60")'): Run(),
    ("docs/observation.md", "env = ccg_env.env(seed=0, card_features=True, card_ids=False)"): Run(),
}

#: Doc files whose blocks are run by tests of their own.
COVERED_FILES = {"docs/scaling.md": "tests/rllib (test_cli_runs.py runs its commands shrunk, in .venv-rllib)"}


@dataclass(frozen=True)
class Block:
    """A fenced block of a Markdown file: its language (the word after the fence) and text."""

    file: str
    line: int
    language: str
    text: str


def fenced_blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, with the line of its opening fence."""
    text = path.read_text(encoding="utf-8")
    name = path.resolve().relative_to(ROOT).as_posix() if path.resolve().is_relative_to(ROOT) else str(path)
    return [Block(name, text.count("\n", 0, match.start()) + 1, match.group(1), match.group(2))
            for match in re.finditer(r"^```([\w-]*)[ \t]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)]


def shell_commands(text: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments dropped, spaces collapsed."""
    commands = []
    for line in re.sub(r"\\\n", " ", text).splitlines():
        command = " ".join(re.sub(r"(^|\s)#.*$", "", line).split())
        if command:
            commands.append(command)
    return commands


def doc_blocks() -> list[Block]:
    return [block for path in DOC_FILES for block in fenced_blocks(path)]


def python_plan(block: Block) -> tuple[tuple[str, str], Run | NotRun] | None:
    """The PYTHON entry of a docs Python block (None if none names a line of it)."""
    found = [(key, plan) for key, plan in PYTHON.items() if key[0] == block.file and key[1] in block.text]
    return found[0] if len(found) == 1 else None


def unlisted_blocks(blocks: list[Block]) -> tuple[list[str], set[str], set[tuple[str, str]]]:
    """What the tables leave out of ``blocks`` (one line each), and the COMMANDS and PYTHON keys the blocks use."""
    unlisted, commands, python = [], set(), set()
    for block in blocks:
        where = f"{block.file}:{block.line}"
        if block.file in COVERED_FILES or block.language in DATA_LANGUAGES:
            continue
        if block.language in SHELL_LANGUAGES:
            for command in shell_commands(block.text):
                (commands.add(command) if command in COMMANDS else unlisted.append(f"{where}: command {command!r}"))
        elif block.language == "python" and block.file == "README.md":
            if "# no-test" in block.text and "# no-test: " not in block.text:
                unlisted.append(f"{where}: a README block marked '# no-test' without ': the reason'")
        elif block.language == "python":
            found = python_plan(block)
            (python.add(found[0]) if found else unlisted.append(f"{where}: Python block not in PYTHON"))
        else:
            unlisted.append(f"{where}: a block in {block.language or 'no language'!r}: name one (sh, python, "
                            f"yaml, text) so this test knows whether to run it")
    return unlisted, commands, python


def test_every_doc_block_is_run_or_listed():
    unlisted, commands, python = unlisted_blocks(doc_blocks())
    assert not unlisted, "doc blocks this test neither runs nor lists (add them to its tables):\n" + "\n".join(unlisted)
    assert set(COMMANDS) == commands, f"table entries no doc shows: {set(COMMANDS) - commands}"
    assert set(PYTHON) == python, f"table entries no doc shows: {set(PYTHON) - python}"


def test_a_new_block_fails_until_it_is_listed():
    new = [Block("docs/new.md", 3, "sh", ".venv/bin/ccg-env arena --games 5\nmake run\n"),
           Block("docs/new.md", 9, "", "ls\n"), Block("docs/new.md", 12, "python", "print(1)\n"),
           Block("README.md", 20, "python", "x = 1  # no-test\n"), Block("docs/new.md", 30, "yaml", "a: 1\n")]
    unlisted, commands, python = unlisted_blocks(new)
    assert unlisted == ["docs/new.md:3: command '.venv/bin/ccg-env arena --games 5'",
                        "docs/new.md:9: a block in 'no language': name one (sh, python, yaml, text) so this test "
                        "knows whether to run it",
                        "docs/new.md:12: Python block not in PYTHON",
                        "README.md:20: a README block marked '# no-test' without ': the reason'"]
    assert commands == {"make run"} and python == set()


def test_commands_not_run_name_a_reason_and_an_existing_test():
    for command, plan in COMMANDS.items():
        if isinstance(plan, NotRun):
            assert plan.reason, command
            assert not plan.covered_by or (ROOT / plan.covered_by).is_file(), plan.covered_by
    for covered_by in COVERED_FILES.values():
        assert (ROOT / covered_by.split()[0]).exists(), covered_by


def test_shell_commands_are_read_as_a_reader_types_them():
    assert shell_commands("a --x 1 \\\n    --y 2   # note\n# only a comment\nb 'c'\n") == ["a --x 1 --y 2", "b 'c'"]
    assert shell_commands(TRAIN + "  # about 21 min") == [TRAIN]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A folder with links to the repository's data, and the commands already run in it."""
    folder = tmp_path_factory.mktemp("docs")
    for name in LINKED:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).symlink_to(ROOT / name, target_is_directory=True)
    return folder, set()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def shrunk(command: str, plan: Run) -> str:
    """The command as run: each substitution applied (it must apply), ``.venv/bin/`` the running Python's."""
    for old, new in plan.shrink:
        assert old in command, f"{command!r}: the substitution of {old!r} no longer applies: update COMMANDS"
        command = command.replace(old, new.replace("{port}", str(free_port())), 1)
    return re.sub(r"(^|\s)\.venv/bin/", rf"\g<1>{BIN}/", command)


def environment() -> dict[str, str]:
    return {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONWARNINGS": "ignore"}


def run_command(command: str, workspace) -> None:
    """Run a listed command in the workspace once (and the commands it needs before it)."""
    folder, done = workspace
    plan = COMMANDS[command]
    for needed in plan.needs:
        if needed not in done:
            run_command(needed, workspace)
    if plan.serves:
        return serve(shrunk(command, plan), folder)
    result = subprocess.run(["bash", "-c", shrunk(command, plan)], cwd=folder, input=plan.stdin, text=True,
                            capture_output=True, timeout=COMMAND_TIMEOUT, env=environment())
    output = result.stdout + result.stderr
    assert result.returncode == plan.exit_status, f"{command!r} exited with {result.returncode}:\n{output[-3000:]}"
    assert plan.expect in output, f"{command!r} did not print {plan.expect!r}:\n{output[-3000:]}"
    done.add(command)


def serve(command: str, folder: Path) -> None:
    """Start a server command, wait until its page answers, stop it."""
    port = re.search(r"--port (\d+)", command).group(1)
    server = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=folder, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env=environment())
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, f"{command!r} stopped:\n{server.stdout.read()[-3000:]}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200 and b"<html" in page.read().lower()
                    return
            except OSError:
                assert time.monotonic() < deadline, f"{command!r} did not answer within 120 s"
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)


def _params(entries):
    return [pytest.param(key, plan, id=str(key), marks=[pytest.mark.slow] if isinstance(plan, Run) and plan.slow
                         else []) for key, plan in entries.items()]


@pytest.mark.parametrize("command, plan", _params(COMMANDS))
def test_doc_command_runs(command, plan, workspace):
    if isinstance(plan, NotRun):
        pytest.skip(f"{plan.reason}" + (f"; run by {plan.covered_by}" if plan.covered_by else ""))
    run_command(command, workspace)


@pytest.mark.parametrize("key, plan", _params(PYTHON))
def test_doc_python_block_runs(key, plan, workspace):
    if isinstance(plan, NotRun):
        pytest.skip(f"{plan.reason}" + (f"; run by {plan.covered_by}" if plan.covered_by else ""))
    folder, done = workspace
    block = next(block for block in doc_blocks() if block.file == key[0] and key[1] in block.text)
    for needed in plan.needs:
        if needed not in done:
            run_command(needed, workspace)
    for name, text in plan.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    result = subprocess.run([sys.executable, "-P", "-c", block.text], cwd=folder, capture_output=True, text=True,
                            timeout=COMMAND_TIMEOUT, env=environment())
    assert result.returncode == 0, f"{key[0]} line {block.line} failed:\n{result.stderr[-3000:]}"
