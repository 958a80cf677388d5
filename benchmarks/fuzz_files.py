"""Fuzz the loaders of files from others: model files, replays and training configs, each refused or loaded cleanly.

Usage::

    python benchmarks/fuzz_files.py --cases 3000 --seed 0                 # 1,000 per target, about 10 minutes
    python benchmarks/fuzz_files.py --targets replay --cases 500 --json    # one target; totals as JSON

Each case starts from an honest file (a small model file written at start, a short saved game, a packaged training
config) and makes it hostile in one of two ways: random bytes (the whole file, or a stretch of it overwritten,
truncated or repeated), or a structured edit (a field of the JSON metadata, replay or YAML config replaced by a
hostile value: deep nesting, YAML aliases, huge or non-finite numbers, control characters, the wrong type; or, for a
model file, bytes of the weights' pickle changed and the checksum fixed, so the edit reaches the tensor reader).
The loader then runs in this process, whose address space is capped (``--memory-mb``), with an alarm per case
(``--case-seconds``). A case passes when the file loads, or is refused with the loader's one-line error
(``ModelFileError``, ``ValueError``, ``FileNotFoundError``); a loaded replay must also render (one embedded copy of
its frames) and replay in the terminal without a control character reaching it. Anything else (another exception,
a multi-line message, a timeout, ``MemoryError``) is a crash, written to ``--out`` with the input that caused it.
Figures (cases, refusals, crashes, seconds) are printed, never asserted; ``tests/reliability/test_fuzz_files.py``
runs a bounded pass.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import resource
import signal
import sys
import tempfile
import time
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

TARGETS = ("model", "replay", "config")
#: Hostile values a structured edit puts in place of a field.
HOSTILE_VALUES: tuple[Callable[[random.Random], Any], ...] = (
    lambda rng: None, lambda rng: True, lambda rng: -1, lambda rng: 10 ** rng.randint(3, 400),
    lambda rng: float("inf"), lambda rng: float("nan"), lambda rng: -1e308, lambda rng: "",
    lambda rng: "\x1b]0;pwned\x07\x1b[2J" * rng.randint(1, 3), lambda rng: "__GAME_DATA____SCRIPT__" * rng.randint(1, 5),
    lambda rng: "../" * rng.randint(1, 8) + "escaped", lambda rng: "x" * rng.choice((101, 5000, 300_000)),
    lambda rng: [rng.randint(0, 9)] * rng.randint(0, 50), lambda rng: {"a": {"b": []}},
    lambda rng: _nested(rng.choice((5, 30, 200))), lambda rng: DEEP, lambda rng: [None, 1, "a"],
    lambda rng: {"": None},
)
#: Stands for 50,000 nested lists, put in the text after dumping (a dumper would recurse that deep).
DEEP = "\u2063deep\u2063"
_DEEP_TEXT = "[" * 50_000 + "]" * 50_000


def _dumps(document: Any) -> str:
    return json.dumps(document).replace(json.dumps(DEEP), _DEEP_TEXT)


def _nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


@dataclass
class Totals:
    """Cases run, how each ended (loaded, refused by error type), and the crashes with their inputs."""

    cases: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)
    crashes: list[str] = field(default_factory=list)


class CaseTimeout(Exception):
    """A case ran past ``--case-seconds``."""


def _alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout()


# --- honest files -------------------------------------------------------------------------------------------


def honest_model(folder: Path) -> Path:
    """A small model file (MaskablePPO, one layer of 16) for the packaged game."""
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv
    from ccg_env.saved_policy import save_policy

    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    return save_policy(folder / "honest.ccgmodel", model.policy)


def honest_replay(folder: Path) -> Path:
    """A short random game saved as a replay (unfinished, so it replays quickly)."""
    from ccg_env.engine import Game
    from ccg_env.viewer.replay import save_replay

    game, rng, choices = Game.new(5), random.Random(5), []
    while not game.is_over and len(choices) < 25:
        choices.append(rng.choice(game.legal_actions()))
        game.apply(choices[-1])
    path = save_replay(folder / "honest.json", 5, ["alice", "bob"], choices, game)
    document = json.loads(path.read_text())
    document.update(result=None, winner=None)
    path.write_text(json.dumps(document))
    return path


def honest_config(folder: Path) -> Path:
    """The packaged smoke training config, copied."""
    from ccg_env.training.train_config import resolve_config_path

    path = folder / "honest.yaml"
    path.write_text(resolve_config_path("smoke").read_text(encoding="utf-8"), encoding="utf-8")
    return path


# --- mutations ----------------------------------------------------------------------------------------------


def random_bytes(data: bytes, rng: random.Random) -> bytes:
    """The file replaced by noise, or a stretch of it overwritten, cut off or repeated."""
    kind = rng.randrange(4)
    if kind == 0:
        return rng.randbytes(rng.randint(0, 4096))
    start = rng.randrange(max(len(data), 1))
    if kind == 1:
        return data[:start] + rng.randbytes(rng.randint(1, 64)) + data[start + rng.randint(1, 64):]
    if kind == 2:
        return data[:start]
    return data[:start] + data[start:start + rng.randint(1, 256)] * rng.randint(2, 200) + data[start:]


def edit_document(document: Any, rng: random.Random) -> Any:
    """``document`` with one field, anywhere in it, replaced by a hostile value (or a key added or removed)."""
    containers = [document]
    target = document
    for _ in range(rng.randint(0, 4)):
        children = list(target.values()) if isinstance(target, dict) else target if isinstance(target, list) else []
        children = [child for child in children if isinstance(child, (dict, list)) and child]
        if not children:
            break
        target = rng.choice(children)
        containers.append(target)
    value = rng.choice(HOSTILE_VALUES)(rng)
    if isinstance(target, dict) and target:
        key = rng.choice(sorted(target, key=str)) if rng.random() < 0.8 else rng.choice(("extra", "\x1b", "x" * 200))
        if rng.random() < 0.1:
            target.pop(key, None)
        else:
            target[key] = value
    elif isinstance(target, list) and target:
        target[rng.randrange(len(target))] = value
    return document


def mutate_model(data: bytes, rng: random.Random) -> bytes:
    """A model file made hostile: bytes, a metadata field, or bytes of the weights' pickle (checksum fixed)."""
    import hashlib

    kind = rng.randrange(3)
    if kind == 0:
        return random_bytes(data, rng)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        metadata, weights = json.loads(archive.read("metadata.json")), archive.read("weights.pt")
    if kind == 1:
        text = _dumps(edit_document(metadata, rng))
    else:
        weights = _mutate_pickle(weights, rng)
        metadata["weights_sha256"] = hashlib.sha256(weights).hexdigest()
        text = json.dumps(metadata)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("metadata.json", text)
        archive.writestr("weights.pt", weights)
    return buffer.getvalue()


def _mutate_pickle(weights: bytes, rng: random.Random) -> bytes:
    """The torch archive with its ``data.pkl`` (names, shapes, strides, storage sizes) changed at random."""
    source = zipfile.ZipFile(io.BytesIO(weights))
    buffer = io.BytesIO()
    with source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            content = source.read(info)
            if info.filename.endswith("data.pkl"):
                content = bytearray(content)
                for _ in range(rng.randint(1, 4)):
                    content[rng.randrange(len(content))] = rng.randrange(256)
                content = bytes(content)
            target.writestr(info, content)
    return buffer.getvalue()


def mutate_json(data: bytes, rng: random.Random) -> bytes:
    """A JSON file made hostile: bytes, or one field replaced."""
    if rng.random() < 0.3:
        return random_bytes(data, rng)
    return _dumps(edit_document(json.loads(data), rng)).encode()


def mutate_yaml(data: bytes, rng: random.Random) -> bytes:
    """A YAML config made hostile: bytes, one setting replaced, or an alias bomb or deep nesting in a setting."""
    import yaml

    kind = rng.randrange(4)
    if kind == 0:
        return random_bytes(data, rng)
    document = yaml.safe_load(data) or {}
    if kind == 3:
        key = rng.choice(sorted(document) or ["league"])
        bomb = "\n".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}' if i else 'x'] * 9)}]" for i in range(8))
        return (bomb + f"\n{key}: *a7\n").encode()
    text = yaml.safe_dump(edit_document(document, rng), allow_unicode=False, default_flow_style=None, width=10**6)
    return text.replace(yaml.safe_dump(DEEP, allow_unicode=False).split("\n")[0], _DEEP_TEXT).encode()


# --- loading ------------------------------------------------------------------------------------------------


def load_model_case(path: Path) -> None:
    from ccg_env.saved_policy import load_model

    load_model(path)


def load_replay_case(path: Path) -> None:
    from ccg_env.viewer.html import render_html
    from ccg_env.viewer.replay import load_replay
    from ccg_env.viewer.terminal import replay_in_terminal

    replay = load_replay(path)
    page = render_html(replay, None)
    if page.count('"step":') != len(replay.choices) + 1:
        raise AssertionError("the page embeds its frames more than once")
    out = io.StringIO()
    replay_in_terminal(str(path), 0, step=False, stdin=io.StringIO(""), stdout=out)
    if any(ord(char) < 32 and char not in "\n\t" for char in out.getvalue()):
        raise AssertionError("a control character reached the terminal")


def load_config_case(path: Path) -> None:
    from ccg_env.training.train_config import load_config

    load_config(path)


LOADERS = {"model": load_model_case, "replay": load_replay_case, "config": load_config_case}
MUTATORS = {"model": mutate_model, "replay": mutate_json, "config": mutate_yaml}
HONEST = {"model": honest_model, "replay": honest_replay, "config": honest_config}
SUFFIXES = {"model": ".ccgmodel", "replay": ".json", "config": ".yaml"}


def run_case(target: str, data: bytes, folder: Path, seconds: float) -> str:
    """Load ``data`` as a ``target`` file; return "loaded", "refused: <Error>", or "crash: <why>"."""
    from ccg_env.model_file import ModelFileError

    path = folder / f"case{SUFFIXES[target]}"
    path.write_bytes(data)
    unraisable: list[str] = []  # errors Python could not raise (in a destructor, say): crashes too
    hook, sys.unraisablehook = sys.unraisablehook, lambda info: unraisable.append(repr(info.exc_value))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        LOADERS[target](path)
        outcome = "loaded"
    except CaseTimeout:
        return f"crash: no answer within {seconds} s"
    except (ModelFileError, ValueError, FileNotFoundError) as error:
        text = str(error)
        if "\n" in text.strip() or not text or len(text) > 2000:
            return f"crash: {type(error).__name__} with a message that is not one line: {text[:200]!r}"
        outcome = f"refused: {type(error).__name__}"
    except Exception as error:  # noqa: BLE001 - every other exception is what the fuzzer looks for
        return f"crash: {type(error).__name__}: {str(error)[:300]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.unraisablehook = hook
    return f"crash: an error Python could not raise: {unraisable[0][:300]}" if unraisable else outcome


def run(targets: tuple[str, ...], cases: int, seed: int, seconds: float, out: Path | None) -> Totals:
    """Fuzz ``cases`` files spread over ``targets`` from ``seed``; crashes are written to ``out`` (if given)."""
    signal.signal(signal.SIGALRM, _alarm)
    totals = Totals()
    with tempfile.TemporaryDirectory(prefix="ccg-fuzz-files-") as scratch:
        folder = Path(scratch)
        honest = {target: HONEST[target](folder).read_bytes() for target in targets}
        for number in range(cases):
            target = targets[number % len(targets)]
            rng = random.Random(seed * 1_000_003 + number)
            data = MUTATORS[target](honest[target], rng)
            outcome = run_case(target, data, folder, seconds)
            totals.cases[target] += 1
            totals.outcomes[f"{target} {outcome.split(':')[0]}"] += 1
            if outcome.startswith("crash"):
                totals.crashes.append(f"{target} case {number} (seed {seed}): {outcome}")
                if out is not None:
                    out.mkdir(parents=True, exist_ok=True)
                    (out / f"{target}-{seed}-{number}{SUFFIXES[target]}").write_bytes(data)
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=300, help="files to fuzz, spread over the targets")
    parser.add_argument("--seed", type=int, default=0, help="seed of the mutations")
    parser.add_argument("--targets", nargs="+", choices=TARGETS, default=list(TARGETS), help="which loaders")
    parser.add_argument("--case-seconds", type=float, default=20.0, help="time one case may take")
    parser.add_argument("--memory-mb", type=int, default=3000, help="this process's address space cap")
    parser.add_argument("--out", default="fuzz-failures/files", help="folder for the inputs of crashes")
    parser.add_argument("--json", action="store_true", help="print the totals as one JSON line")
    args = parser.parse_args(argv)
    if args.cases < 1 or args.case_seconds <= 0 or args.memory_mb < 500:
        parser.error("--cases must be at least 1, --case-seconds above 0 and --memory-mb at least 500")
    limit = args.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    start = time.perf_counter()
    totals = run(tuple(args.targets), args.cases, args.seed, args.case_seconds, Path(args.out))
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"cases": dict(totals.cases), "outcomes": dict(totals.outcomes),
                          "crashes": totals.crashes, "seconds": round(seconds, 1)}))
    else:
        print(f"{sum(totals.cases.values()):,} cases in {seconds:,.0f} s: "
              + ", ".join(f"{key} {count:,}" for key, count in sorted(totals.outcomes.items())))
        print(f"{len(totals.crashes)} crashes" + "".join(f"\n  {crash}" for crash in totals.crashes[:20]))
    return 1 if totals.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
