"""Same seed, same game, also across processes with different hash seeds."""

import os
import subprocess
import sys

SCRIPT = """
import hashlib, random
from ccg_env.engine import Game
digest = hashlib.sha256()
for seed in range(15):
    game = Game.new(seed=seed, decks=["aggro", "midrange"])
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        digest.update(repr(game.legal_actions()).encode())
    digest.update(game.to_json().encode())
    digest.update("\\n".join(str(e) for e in game.log).encode())
print(digest.hexdigest())
"""


def _run(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_games_are_identical_across_processes_and_hash_seeds():
    digests = {_run(seed) for seed in ("0", "1", "12345")}
    assert len(digests) == 1 and len(next(iter(digests))) == 64
