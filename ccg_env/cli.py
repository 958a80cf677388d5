"""The ccg-env command: arena tournaments, playing in the terminal, training and re-evaluating its checkpoints,
benchmarks, replays and model files.

``ccg-env deck validate FILE`` and ``ccg-env deck build --hero CLASS --strategy curve|aggro|control`` check and build
constructed decks. ``ccg-env arena`` with no options is the project's main job: a seeded round-robin between the random,
heuristic and search agents (search at a small budget) over every ordered pair of the packaged decks, each deal
played from both seats, that prints the win-rate table with its seat and deck splits and the ratings, and
saves JSON, CSV and plots. Run ``ccg-env <command> --help`` for each command's options.

Agents live in ``ccg_env/agents/`` (above this module in the layering); they are imported inside the commands, so
``import ccg_env.cli`` stays light and ``import ccg_env.engine`` never pulls them in.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shlex
import sys
from pathlib import Path
from typing import Sequence

from ccg_env.cli_data_options import GameData, add_data_options, load_game_data
from ccg_env.extras import MissingExtraError
from ccg_env.terminal_text import terminal_safe

DEFAULT_ARENA_AGENTS = ("random", "heuristic", "search:iterations=16")
DEFAULT_ARENA_GAMES = 196  # two whole cycles over the 7 packaged decks (2 x 7 x 7 deck pairs x 2 seats)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand (each option carries its help text)."""
    parser = argparse.ArgumentParser(prog="ccg-env", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_arena(commands)
    _add_ladder(commands)
    _add_exploit(commands)
    _add_balance(commands)
    _add_play(commands)
    _add_train(commands)
    _add_evaluate(commands)
    _add_dataset(commands)
    _add_bc(commands)
    _add_bench(commands)
    _add_replay(commands)
    _add_view(commands)
    _add_serve(commands)
    _add_model(commands)
    _add_deck(commands)
    return parser


def _whole_number(text: str, low: int, high: int | None, expected: str, must: str) -> int:
    """``text`` as an int in ``low..high`` (no upper bound when ``high`` is None), or an argparse error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"must be {must}, got {value}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    return _whole_number(text, 1, None, "a whole number of at least 1", "at least 1")


def non_negative_int(text: str) -> int:
    """argparse type: a whole number of at least 0."""
    return _whole_number(text, 0, None, "a whole number of at least 0", "at least 0")


def port_number(text: str) -> int:
    """argparse type: a TCP port, 1 to 65535."""
    return _whole_number(text, 1, 65535, "a port number from 1 to 65535", "a port number from 1 to 65535")


def positive_seconds(text: str) -> float:
    """argparse type: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds above 0, got {text!r}")
    return value


def _command(commands: argparse._SubParsersAction, name: str, help_text: str) -> argparse.ArgumentParser:
    return commands.add_parser(name, help=help_text.replace("%", "%%"), description=help_text,
                               formatter_class=argparse.ArgumentDefaultsHelpFormatter)


def check_deck_names(names: Sequence[str] | None) -> None:
    """Refuse a ``--decks`` entry that is neither a packaged deck name nor a path to a deck .yaml file."""
    from ccg_env.engine.decks import default_deck_paths

    known = default_deck_paths()
    for name in names or ():
        if name not in known and Path(name).suffix not in (".yaml", ".yml"):
            raise ValueError(f"--decks: unknown deck {name!r}; known decks: {', '.join(known)} (or a .yaml path)")


def _add_arena(commands: argparse._SubParsersAction) -> None:
    arena = _command(commands, "arena", "Round-robin tournament between agents over a pool of decks, each deal "
                                        "played from both seats: win rates with 95% Wilson intervals, split by "
                                        "seat and by deck, Bradley-Terry ratings, JSON/CSV files and plots.")
    arena.add_argument("--agents", nargs="+", default=list(DEFAULT_ARENA_AGENTS), metavar="SPEC",
                       help="agents to compare: registered names (random, heuristic, search, learned) or "
                            "NAME:KEY=VALUE,... specs such as search:iterations=16 or learned:path=model.ccgmodel")
    arena.add_argument("--decks", nargs="+", default=None, metavar="DECK",
                       help="the deck pool: packaged deck names or .yaml paths (default: every packaged deck); "
                            "every ordered pair of them is dealt, each deal from both seats")
    arena.add_argument("--games", type=positive_int, default=DEFAULT_ARENA_GAMES,
                       help="games per pair of agents; a multiple of 2 x decks x decks (98 with the 7 packaged "
                            "decks) plays every ordered deck pair from both seats equally often")
    arena.add_argument("--seed", type=int, default=0,
                       help="first game seed (deal j, games 2j and 2j+1 of every pair, uses seed + j)")
    arena.add_argument("--card-features", action="store_true",
                       help="agents observe card features (docs/observation.md), as a model trained with "
                            "card_features=true needs")
    arena.add_argument("--no-card-ids", action="store_true",
                       help="with --card-features: the observation leaves out the card-id one-hots")
    arena.add_argument("--workers", type=positive_int, default=2, help="worker processes (1 = play in this process)")
    arena.add_argument("--out-dir", default="arena_results",
                       help="folder for results.json, pairs.csv, seats.csv, decks.csv, matchups.csv, ratings.csv, "
                            "games.csv and the plots")
    arena.add_argument("--save-games", type=non_negative_int, default=0, metavar="K",
                       help="also write the first K games of every pair as replay files (for 'ccg-env view' and "
                            "'ccg-env replay') into OUT_DIR/games/A-vs-B/game_<k>.json")
    arena.add_argument("--mode", choices=("duel", "draft"), default="duel",
                       help="duel: the deck pool's decks; draft: each agent drafts its deck (30 picks of one of "
                            "three cards, from the game's seed) with its draft strategy, then battles (a spec's "
                            "draft=random|heuristic|MODEL option sets the strategy; default the agent's own, or the "
                            "heuristic's)")
    arena.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    _add_trust_model(arena)
    add_data_options(arena, decks=False)  # --decks above: a pool of decks, not a pair


def _add_balance(commands: argparse._SubParsersAction) -> None:
    balance = _command(commands, "balance", "Deck balance in a mirror match (one agent in both seats) over every "
                                            "ordered pair of a deck pool: each deck's score against the field with "
                                            "its 95% interval, the deck x deck matrix, the first seat's score, and "
                                            "the bounds that fail (exit status 1 when one does).")
    balance.add_argument("--agent", default="heuristic", metavar="SPEC",
                         help="the agent playing both seats, as the arena takes it (e.g. search:iterations=48)")
    balance.add_argument("--games", type=positive_int, default=490,
                         help="games to play, each with its own seed; a multiple of decks x decks (49 with the 7 "
                              "packaged decks) plays every ordered deck pair equally often")
    balance.add_argument("--decks", nargs="+", default=None, metavar="DECK",
                         help="the deck pool: packaged deck names or .yaml paths (default: every packaged deck)")
    balance.add_argument("--seed", type=int, default=0, help="first game seed (game j uses seed + j)")
    balance.add_argument("--workers", type=positive_int, default=1, help="worker processes (1 = play in this process)")
    balance.add_argument("--json", metavar="PATH", help="also write the figures and every game to this JSON file")
    balance.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_data_options(balance, decks=False)  # --decks above: a pool of decks


def _add_ladder(commands: argparse._SubParsersAction) -> None:
    ladder = _command(commands, "ladder", "Rate an agent on the benchmark's fixed scale: play it against every member "
                                          "of the frozen reference pool (random, heuristic, search at 8, 48 and 192 "
                                          "iterations, the shipped model) on the arena's deals, each from both seats, "
                                          "and fit its rating with the pool's held fixed; win rates with per-deal "
                                          "intervals, deal categories, decision times, JSON/CSV, a table and a plot.")
    ladder.add_argument("agent", metavar="AGENT",
                        help="an agent spec as the arena takes it (heuristic, search:iterations=48, "
                             "learned:path=m.ccgmodel, an entry-point agent) or a model file (.ccgmodel, .ccgrllib)")
    ladder.add_argument("--quick", action="store_true",
                        help="play the pool's quick game counts (about a seventh of the games: a wider interval)")
    ladder.add_argument("--games", type=positive_int, default=None, metavar="N",
                        help="play N games against every member instead of the pool's counts")
    ladder.add_argument("--leaderboard", metavar="FILE", default=None,
                        help="add the agent's row to this Markdown leaderboard (created with its header if absent)")
    ladder.add_argument("--pool", metavar="FILE", default=None, help="a pool file (default: the packaged pool)")
    ladder.add_argument("--seed", type=int, default=None,
                        help="first deal seed (default: 1000000, deals the pool's fit did not play)")
    ladder.add_argument("--time-limit", type=positive_seconds, default=1.0, metavar="SECONDS",
                        help="per-decision time limit of AGENT: decisions over it are counted (not forfeited)")
    ladder.add_argument("--workers", type=positive_int, default=2, help="worker processes (1 = play in this process)")
    ladder.add_argument("--bootstrap-samples", type=positive_int, default=1000, metavar="N",
                        help="bootstrap resamples of the deals for the rating's interval")
    ladder.add_argument("--out-dir", default="ladder_results",
                        help="folder for results.json, members.csv, ladder.txt and ladder.png")
    ladder.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    _add_trust_model(ladder)


def _add_exploit(commands: argparse._SubParsersAction) -> None:
    exploit = _command(commands, "exploit", "Measure how exploitable an agent is: train a best response against it "
                                            "(MaskablePPO, the default training recipe, the frozen agent as the "
                                            "opponent) for N minutes of wall time, then play each of its snapshots "
                                            "against the agent on the ladder's deals; win rates with per-deal "
                                            "intervals, a lower bound on the agent's exploitability.")
    exploit.add_argument("agent", metavar="AGENT",
                         help="an agent spec as the ladder takes it (heuristic, search:iterations=48, "
                              "learned:path=m.ccgmodel, an entry-point agent) or a model file (.ccgmodel)")
    exploit.add_argument("--minutes", type=positive_minutes, required=True,
                         help="wall time of training (the warm start included)")
    exploit.add_argument("--games", type=positive_int, default=None, metavar="G",
                         help="games per snapshot; none given: every ordered pair of the packaged decks from both "
                              "seats once (98)")
    exploit.add_argument("--checkpoints", type=positive_int, default=4, metavar="K",
                         help="snapshots evenly spaced over the budget, the last at N minutes")
    exploit.add_argument("--seed", type=int, default=None, help="training seed; none given: the recipe's")
    exploit.add_argument("--out", "--out-dir", dest="out_dir", default="exploit_results", metavar="DIR",
                         help="folder for the snapshots, results.json, snapshots.csv, exploit.txt and exploit.png")
    exploit.add_argument("--leaderboard", metavar="FILE", default=None,
                         help="add the agent's exploitability row to this Markdown leaderboard")
    exploit.add_argument("--config", default="ppo_vs_heuristic",
                         help="the training recipe: a configs/train/<name>.yaml path or a packaged name")
    exploit.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                         help="override one recipe key (repeatable), e.g. --set net_arch=[64,64]")
    exploit.add_argument("--workers", type=positive_int, default=2,
                         help="worker processes of the evaluation games (1 = play in this process)")
    exploit.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    _add_trust_model(exploit)


def positive_minutes(text: str) -> float:
    """argparse type: a finite number of minutes above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of minutes above 0, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number of minutes above 0, got {text!r}")
    return value


def _add_play(commands: argparse._SubParsersAction) -> None:
    play = _command(commands, "play", "Play a game in the terminal against an agent: pick legal actions by "
                                      "number; q (or end of input) quits.")
    play.add_argument("--opponent", default="heuristic", metavar="SPEC",
                      help="the agent to play against (a registered name or NAME:KEY=VALUE,... spec)")
    play.add_argument("--seed", type=int, default=0, help="game seed (deck shuffles and random effects)")
    play.add_argument("--seat", type=int, choices=(0, 1), default=0, help="your seat: 0 moves first, 1 second")
    play.add_argument("--save", metavar="PATH", help="write the game as a replay JSON file when it ends")
    play.add_argument("--card-features", action="store_true",
                      help="the opponent observes card features (docs/observation.md), as a model trained with "
                           "card_features=true needs")
    play.add_argument("--no-card-ids", action="store_true",
                      help="with --card-features: the observation leaves out the card-id one-hots")
    _add_trust_model(play)
    add_data_options(play)


def _add_train(commands: argparse._SubParsersAction) -> None:
    train = _command(commands, "train", "Train a MaskablePPO agent, or with --backend rllib a Ray RLlib PPO "
                                                 "self-play agent (delegates to ccg_env.training.train).")
    train.add_argument("--config", required=True, metavar="PATH",
                       help="training config: a configs/train/<name>.yaml path or a packaged config name")
    train.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                       help="override one config key (repeatable), e.g. --set total_timesteps=4096")
    train.add_argument("--backend", choices=("sb3", "rllib"),
                       help="sb3 (MaskablePPO in one process) or rllib (Ray RLlib self-play, extra 'rllib'); "
                            "default: the config's backend key, else sb3")
    train.add_argument("--address", metavar="ADDRESS",
                       help="with --backend rllib: the Ray cluster to join ('auto' for the one this machine is in, "
                            "see docs/scaling.md); default: a local Ray")
    train.add_argument("--no-progress", action="store_true",
                       help="hide the progress bar (same as --set progress=false; shown by default on a terminal)")
    train.add_argument("--trust-model", action="store_true",
                       help="allow stable-baselines3 .zip files as init_model or league checkpoints (same as "
                            "--set trust_model=true): loading one unpickles it, which can run code from the file")
    add_data_options(train)


def _add_evaluate(commands: argparse._SubParsersAction) -> None:
    evaluate = _command(commands, "evaluate", "Re-evaluate every checkpoint of a finished training run on more games "
                                              "than its training evaluations played: checkpoint_eval.csv and "
                                              "checkpoint_eval.png in the run folder, checkpoint_eval_<opponent>.* "
                                              "for another --opponent (ccg_env.training.checkpoint_eval).")
    evaluate.add_argument("run_dir", metavar="RUN_DIR", help="the run folder, e.g. runs/ppo_vs_heuristic")
    evaluate.add_argument("--games", type=positive_int, default=1960,
                          help="games per checkpoint (a multiple of 98 plays every ordered pair of the 7 packaged "
                               "decks from both seats equally often)")
    evaluate.add_argument("--seed", type=non_negative_int, default=2_000_000,
                          help="seed of the deals (training's evaluations use eval_seed, 1000000 by default)")
    evaluate.add_argument("--envs", type=positive_int, default=98, help="games played side by side")
    evaluate.add_argument("--opponent", metavar="AGENT", help="a registered agent, with options as in the arena "
                                                               "(search:iterations=8); default: the run's evaluation "
                                                               "opponent")
    evaluate.add_argument("--no-progress", action="store_true", help="hide the progress bar (shown on a terminal)")


def _add_dataset(commands: argparse._SubParsersAction) -> None:
    dataset = _command(commands, "dataset", "Record an agent's decisions over the arena's deals (every ordered deck "
                                            "pair, the agent in both seats) as a Minari dataset: observation, mask, "
                                            "action id, reward, deal and seed, search's visit counts; each game also "
                                            "as a replay file (ccg_env.training.dataset; extra 'dataset').")
    dataset.add_argument("--agent", required=True, metavar="SPEC",
                         help="the recorded agent: heuristic, search:N (N iterations) or any arena spec")
    dataset.add_argument("--opponent", default="heuristic", metavar="SPEC", help="the agent it plays against")
    dataset.add_argument("--decisions", type=positive_int, required=True, metavar="D",
                         help="record at least D of the agent's decisions (whole games)")
    dataset.add_argument("--seed", type=int, default=0, help="first deal seed (deal j uses seed + j)")
    dataset.add_argument("--out", required=True, metavar="DIR",
                         help="the datasets folder (Minari's MINARI_DATASETS_PATH): writes DIR/<dataset id>/")
    dataset.add_argument("--dataset-id", default=None, metavar="ID",
                         help="Minari dataset id (default: duel-<agent>-v0, e.g. duel-search48-v0)")
    dataset.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def _add_bc(commands: argparse._SubParsersAction) -> None:
    bc = _command(commands, "bc", "Behaviour cloning: fit a training config's policy to a 'ccg-env dataset' and "
                                  "write it as a .ccgmodel file (ccg_env.training.bc).")
    bc.add_argument("dataset", metavar="DATASET", help="the dataset folder, DIR/<dataset id> as 'ccg-env dataset' "
                                                       "wrote it")
    bc.add_argument("--out", required=True, metavar="MODEL", help="the .ccgmodel file to write")
    bc.add_argument("--config", default="ppo_vs_heuristic", metavar="PATH",
                    help="the training config whose policy is fitted (a packaged name or a YAML path)")
    bc.add_argument("--epochs", type=positive_int, default=6, help="passes over the decisions")
    bc.add_argument("--seed", type=int, default=0, help="seed of the policy's initial weights and the minibatches")


def _add_bench(commands: argparse._SubParsersAction) -> None:
    bench = _command(commands, "bench", "Benchmarks: engine decisions/s, clone cost, agents' time per decision.")
    bench.add_argument("--seconds", type=positive_seconds, default=2.0,
                       help="duration of one engine random-play repeat")
    bench.add_argument("--repeats", type=positive_int, default=3, help="repeats of the engine figures (median shown)")
    bench.add_argument("--agents", nargs="+", default=["random", "heuristic", "search"], metavar="SPEC",
                       help="agents whose time per decision is measured (against the heuristic)")
    bench.add_argument("--games", type=positive_int, default=4, help="games played per measured agent")
    _add_trust_model(bench)


def _add_replay(commands: argparse._SubParsersAction) -> None:
    replay = _command(commands, "replay", "Replay a game saved with 'ccg-env play --save' (or 'arena --save-games'), "
                                          "decision by decision: "
                                          "Enter shows the next, b goes back, q quits.")
    replay.add_argument("path", help="the replay JSON file")
    replay.add_argument("--seat", type=int, choices=(0, 1), default=0,
                        help="whose point of view the board is drawn from")
    stepping = replay.add_mutually_exclusive_group()
    stepping.add_argument("--step", dest="step", action="store_true", default=None,
                          help="step through the game (the default when the input is a terminal)")
    stepping.add_argument("--all", dest="step", action="store_false",
                          help="print every decision at once (the default when the input is not a terminal)")
    add_data_options(replay)


def _add_view(commands: argparse._SubParsersAction) -> None:
    view = _command(commands, "view", "Write a saved game as one self-contained HTML page that steps through it "
                                      "(no server, nothing fetched): heroes, hands, minions, each action's reactions.")
    view.add_argument("path", help="the replay JSON file ('ccg-env play --save' or 'arena --save-games')")
    view.add_argument("-o", "--out", metavar="HTML",
                      help="the page to write (default: the replay's name with .html)")
    view.add_argument("--seat", choices=("auto", "0", "1", "both"), default="auto",
                      help="whose hand to show: 0 or 1 (the other as a count), both (spectator), or auto (the seat "
                           "a person played, else both)")
    add_data_options(view)


def _add_serve(commands: argparse._SubParsersAction) -> None:
    serve = _command(commands, "serve", "Play in the browser against an agent: a small local web server on "
                                        "127.0.0.1; click a card, then its target. Finished games are saved and "
                                        "viewable there.")
    serve.add_argument("--opponent", default="heuristic", metavar="SPEC",
                       help="the agent to play against (a registered name or NAME:KEY=VALUE,... spec)")
    serve.add_argument("--seed", type=int, default=0, help="first game seed (each new game adds 1)")
    serve.add_argument("--seat", type=int, choices=(0, 1), default=0, help="your seat: 0 moves first, 1 second")
    serve.add_argument("--port", type=port_number, default=8765, help="port to listen on (1-65535)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1, this machine only; another address lets other "
                            "machines reach the game, and the server then answers to that name too)")
    serve.add_argument("--save-dir", default="served_games", help="folder the finished games are saved in")
    _add_trust_model(serve)
    add_data_options(serve)


def _add_trust_model(command: argparse.ArgumentParser) -> None:
    command.add_argument("--trust-model", action="store_true",
                         help="let agents load stable-baselines3 .zip models (adds trust=true to their specs): "
                              "loading one unpickles it, which runs any code its author put in; use only for "
                              "files you trust, or convert them once with 'ccg-env model convert'")


def _add_model(commands: argparse._SubParsersAction) -> None:
    model = _command(commands, "model", "Model files: convert a stable-baselines3 .zip into a .ccgmodel file "
                                        "(which loads without running code from it), or show what one holds.")
    actions = model.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    convert = actions.add_parser("convert", help="convert a trusted SB3 .zip into a .ccgmodel file",
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    convert.add_argument("source", help="the stable-baselines3 .zip (MaskablePPO.load unpickles it)")
    convert.add_argument("destination", help="the .ccgmodel file to write")
    convert.add_argument("--trust-model", action="store_true",
                         help="required: confirms you trust the .zip, which is unpickled to convert it")
    convert.add_argument("--rules", metavar="PATH", help="rules YAML the model was trained under (default: packaged)")
    convert.add_argument("--cards", nargs="+", metavar="PATH", help="card YAML file(s) it was trained on "
                                                                    "(default: the packaged cards)")
    inspect = actions.add_parser("inspect", help="print a .ccgmodel file's metadata (loads no weights)")
    inspect.add_argument("path", help="the .ccgmodel file")


def _add_deck(commands: argparse._SubParsersAction) -> None:
    from ccg_env.engine.vocabulary import CardClass

    deck = _command(commands, "deck", "Constructed decks: check a deck file against the cards and rules, or build "
                                      "a legal deck for a hero class.")
    actions = deck.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    validate = actions.add_parser("validate", help="check a deck file (size, copies, collectible, class); print OK "
                                                   "and a summary, or the error naming file, deck and card (exit 1)",
                                  formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    validate.add_argument("file", metavar="FILE", help="the deck YAML file")
    add_data_options(validate, decks=False)
    build = actions.add_parser("build", help="write a legal deck YAML for a hero class, built by card value and a "
                                             "strategy's mana curve (ccg_env/agents/draft.py)",
                               formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    build.add_argument("--hero", required=True, choices=[c.value for c in CardClass],
                       help="the deck's hero class (neutral: neutral cards only)")
    build.add_argument("--strategy", choices=("curve", "aggro", "control"), default="curve",
                       help="curve: a balanced mana curve; aggro: cheap cards, charge and burn; control: taunt, "
                            "removal, healing and a higher curve")
    build.add_argument("--seed", type=non_negative_int, default=None,
                       help="jitter the card scores with this seed for a different deck (default: none)")
    build.add_argument("--name", default=None, help="the deck's name (default: HERO_STRATEGY)")
    build.add_argument("--out", metavar="FILE", default=None, help="write the deck here (default: print it)")
    add_data_options(build, decks=False)


def with_trust(specs: Sequence[str]) -> list[str]:
    """``--trust-model``: add ``trust=true`` to every agent spec whose agent takes a ``trust`` option."""
    import inspect

    from ccg_env.agent_api import agent_factory

    trusted = []
    for spec in specs:
        name, _, options = spec.partition(":")
        try:
            takes_trust = "trust" in inspect.signature(agent_factory(name.strip())).parameters
        except (ValueError, TypeError):
            takes_trust = False  # an unknown name: building the agent reports it
        trusted.append(f"{spec}{',' if options else ':'}trust=true" if takes_trust and "trust=" not in options
                       else spec)
    return trusted


# --- commands ------------------------------------------------------------------------------------------


def run_arena(args: argparse.Namespace) -> int:
    from ccg_env.agents.arena import (balance_note, build_agent, build_drafting_agent, cycle_games, resolve_pool,
                              run_tournament)
    from ccg_env.agents.report import OUTPUT_FILES

    if Path(args.out_dir).exists() and not Path(args.out_dir).is_dir():
        raise ValueError(f"--out-dir {args.out_dir!r} is a file, not a folder")
    if args.mode == "draft":
        if args.card_features or args.no_card_ids:
            raise ValueError("--card-features and --no-card-ids are for --mode duel")
        if args.decks or args.save_games:
            raise ValueError("--mode draft drafts every deck and saves no sample games: leave out --decks and "
                             "--save-games")
        data = load_game_data(args.cards, None, args.rules)
        agents = with_trust(args.agents) if args.trust_model else list(args.agents)
        for spec in agents:
            build_drafting_agent(spec)
        result = run_tournament(agents, games_per_pair=args.games, seed=args.seed, workers=args.workers,
                                out_dir=args.out_dir, progress=not args.no_progress, rules=data.rules,
                                cards=data.cards, mode="draft")
        print(result.table())
        print(f"\nresults written to {args.out_dir}/ ({', '.join(OUTPUT_FILES)})")
        return 0
    check_deck_names(args.decks)
    data = load_game_data(args.cards, None, args.rules)  # arena's --decks is a pool, checked next
    # a bad deck file or a deck given twice stops here, before any game
    n_decks = len(resolve_pool(args.decks, data.rules, data.cards))
    agents = with_trust(args.agents) if args.trust_model else list(args.agents)
    for spec in agents:
        build_agent(spec)  # and so does a bad agent spec, before the note below (keeping errors to one line)
    if args.games % cycle_games(n_decks):
        print(f"note: {balance_note(args.games, n_decks)}", file=sys.stderr)
    result = run_tournament(agents, games_per_pair=args.games, seed=args.seed, workers=args.workers,
                            out_dir=args.out_dir, progress=not args.no_progress, rules=data.rules,
                            cards=data.cards, decks=args.decks, save_games=args.save_games,
                            sources=data.sources, card_features=args.card_features, card_ids=not args.no_card_ids)
    print(result.table())
    print(f"\nresults written to {args.out_dir}/ ({', '.join(OUTPUT_FILES)})")
    if result.replays:
        folders = list(dict.fromkeys(str(Path(path).parent) for path in result.replays))
        print(f"sample games (the first {min(args.save_games, args.games)} of each pair) written to "
              f"{', '.join(f'{folder}/' for folder in folders)}; open one with: {view_command(result.replays[0])}")
    return 0


def checked_agent_and_outputs(args: argparse.Namespace, out_option: str) -> str:
    """The ladder spec of ``args.agent``, built once so that a bad spec or model file stops before any game, after
    refusing an output folder (``args.out_dir``, named ``out_option``) that is a file or a leaderboard that is a
    folder."""
    from ccg_env.agents.arena import build_agent
    from ccg_env.agents.ladder import ladder_agent_spec

    for option, path in ((out_option, args.out_dir), ("--leaderboard", args.leaderboard)):
        if path is not None and Path(path).exists() and Path(path).is_dir() == (option == "--leaderboard"):
            raise ValueError(f"{option} {path!r} is a {'folder' if option == '--leaderboard' else 'file'}")
    spec = ladder_agent_spec(args.agent)
    spec = with_trust([spec])[0] if args.trust_model else spec
    build_agent(spec)
    return spec


def run_ladder(args: argparse.Namespace) -> int:
    from ccg_env.agents.ladder import LADDER_SEED, run_ladder as play_ladder
    from ccg_env.agents.ladder_report import LADDER_FILES, append_leaderboard

    spec = checked_agent_and_outputs(args, "--out-dir")
    result = play_ladder(spec, pool=args.pool, quick=args.quick, games=args.games,
                         seed=LADDER_SEED if args.seed is None else args.seed, workers=args.workers,
                         time_limit=args.time_limit, progress=not args.no_progress,
                         bootstrap_samples=args.bootstrap_samples, out_dir=args.out_dir)
    print(result.table())
    print(f"\nresults written to {args.out_dir}/ ({', '.join(LADDER_FILES)})")
    if args.leaderboard:
        print(f"leaderboard row added to {args.leaderboard}: {append_leaderboard(result, args.leaderboard)}")
    return 0


def run_exploit(args: argparse.Namespace) -> int:
    from ccg_env.agents.exploit_report import EXPLOIT_FILES, append_exploitability
    from ccg_env.training.train_config import parse_overrides

    spec = checked_agent_and_outputs(args, "--out")
    from ccg_env.training.exploit import run_exploit as exploit

    result = exploit(spec, args.minutes, games=args.games, checkpoints=args.checkpoints, seed=args.seed,
                     out_dir=args.out_dir, recipe=args.config, overrides=parse_overrides(args.overrides),
                     workers=args.workers, progress=not args.no_progress)
    print(result.table())
    print(f"\nresults written to {args.out_dir}/ ({', '.join(EXPLOIT_FILES)}, snapshots/)")
    if args.leaderboard:
        print(f"exploitability row added to {args.leaderboard}: {append_exploitability(result, args.leaderboard)}")
    return 0


def run_balance(args: argparse.Namespace) -> int:
    from ccg_env.agents.balance import mirror_balance

    check_deck_names(args.decks)
    data = load_game_data(args.cards, None, args.rules)
    result = mirror_balance(args.agent, args.games, args.seed, decks=args.decks, rules=data.rules, cards=data.cards,
                            workers=args.workers, progress=not args.no_progress)
    print(result.table())
    if args.json:
        result.save(args.json)
        print(f"figures and games written to {args.json}")
    return 1 if result.failures() else 0


def view_command(replay_path: str) -> str:
    """The ``ccg-env view`` command line that opens a replay file, with the data options the file records."""
    from ccg_env.viewer.replay import load_replay

    words = ["ccg-env", "view", str(replay_path)]
    for kind, value in (load_replay(replay_path).sources or {}).items():
        if value:
            words += [f"--{kind}", *([value] if isinstance(value, str) else value)]
    return shlex.join(words)


def run_play(args: argparse.Namespace) -> int:
    from ccg_env.agents.arena import build_agent
    from ccg_env.agents.human import HumanAgent
    from ccg_env.terminal_text import TerminalSafeStream

    if args.save and not Path(args.save).resolve().parent.is_dir():
        raise ValueError(f"--save {args.save!r}: no folder {str(Path(args.save).parent)!r} to write the replay in")
    data = _game_data(args)
    human = HumanAgent(stdout=TerminalSafeStream(sys.stdout))  # card names from files: shown, never sent as controls
    opponent = build_agent(with_trust([args.opponent])[0] if args.trust_model else args.opponent)
    seats = [human, opponent] if args.seat == 0 else [opponent, human]
    layout = {"card_features": args.card_features, "card_ids": not args.no_card_ids}
    game, choices = _play_in_terminal(seats, args.seat, args.seed, data, layout)
    if args.save:
        _save_replay(args.save, args.seed, [a.name for a in seats], choices, game, data.sources)
        print(f"replay saved to {args.save}")
    return 0


def _play_in_terminal(seats: list, human_seat: int, seed: int, data: GameData | None = None,
                      layout: dict | None = None) -> tuple:
    """Play until the game ends or the person quits; return the game and the choices made. ``layout``: the
    observation's options (``card_features``, ``card_ids``) agents are shown."""
    from ccg_env.agents.human import QuitGame
    from ccg_env.agents.match import MatchRunner
    from ccg_env.engine.view import GameView

    runner = MatchRunner(**(data.game_kwargs() if data is not None else {}), **(layout or {}))
    game = runner.new_game(seed, log=True)
    choices: list = []
    try:
        runner.play(seats, seed, game=game, choices=choices)
    except QuitGame:
        print("You left the game.")
    else:
        seats[human_seat].show(GameView(game, human_seat), _outcome(game, human_seat))
    return game, choices


def _outcome(game, seat: int) -> str:
    from ccg_env.engine.log_words import player_turn

    mover = game.current_player
    when = f"on {'your' if mover == seat else 'the enemy' + chr(39) + 's'} turn {player_turn(game.turn, mover)}"
    if game.winner is None:
        return f"Game over: {game.result.value.replace('_', ' ')} {when}."
    return f"Game over: you {'win' if game.winner == seat else 'lose'} {when}."


def _save_replay(path: str, seed: int, seats: list[str], choices: list, game, sources: dict | None = None) -> None:
    from ccg_env.viewer.replay import save_replay

    save_replay(path, seed, seats, choices, game, sources)


def run_replay(args: argparse.Namespace) -> int:
    from ccg_env.viewer.terminal import replay_in_terminal

    step = args.step if args.step is not None else sys.stdin.isatty()
    return replay_in_terminal(args.path, args.seat, step=step, stdin=sys.stdin, stdout=sys.stdout,
                              data=_game_data(args))


def _game_data(args: argparse.Namespace) -> GameData:
    """The checked --cards, --decks and --rules of a command (defaults: the packaged files)."""
    return load_game_data(args.cards, args.decks, args.rules)


def run_view(args: argparse.Namespace) -> int:
    from ccg_env.viewer import write_html

    seat = {"auto": "auto", "both": None, "0": 0, "1": 1}[args.seat]
    out = args.out or str(Path(args.path).with_suffix(".html"))
    written = write_html(args.path, out, seat, data=_game_data(args))
    print(f"wrote {written}: open it in a browser (arrow keys step through the game)")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    try:
        import flask  # noqa: F401 - both are needed; said at once rather than on the first request
        import waitress  # noqa: F401

        from ccg_env.viewer.server import PlaySession, serve
    except ImportError as error:
        print(f"ccg-env serve needs Flask and waitress ({error}): pip install 'ccg-env[web]'", file=sys.stderr)
        return 2
    from ccg_env.agents.arena import build_agent
    from ccg_env.agents.match import MatchRunner

    if Path(args.save_dir).exists() and not Path(args.save_dir).is_dir():
        raise ValueError(f"--save-dir {args.save_dir!r} is a file, not a folder")
    data = _game_data(args)
    agent = build_agent(with_trust([args.opponent])[0] if args.trust_model else args.opponent)
    agent.reset(seed=args.seed)
    runner = MatchRunner(**data.game_kwargs())
    opponent_name = str(getattr(agent, "name", args.opponent))
    names = ("you", opponent_name) if args.seat == 0 else (opponent_name, "you")
    session = PlaySession(args.seed, args.seat, names, lambda game, seat: runner.decide(game, agent, args.seed),
                          Path(args.save_dir), data)
    try:
        serve(session, args.port, host=args.host,
              ready=lambda url: print(f"playing at {url} (Ctrl-C stops the server)", flush=True))
    except KeyboardInterrupt:
        print("server stopped")
    return 0


def run_train(args: argparse.Namespace) -> int:
    try:
        from ccg_env.training.train import main as train_main
    except ImportError as error:
        print(f"ccg-env train: training is unavailable ({error}); install the extras with "
              f"pip install 'ccg-env[train]'", file=sys.stderr)
        return 2
    argv = ["--config", args.config]
    for override in args.overrides:
        argv += ["--set", override]
    if args.no_progress:
        argv += ["--set", "progress=false"]
    if args.backend:
        argv += ["--backend", args.backend]
    if args.address:
        argv += ["--address", args.address]
    if args.trust_model:
        argv += ["--set", "trust_model=true"]
    data = _game_data(args)  # checked here, so a bad file stops the command before training starts
    for key, value in (data.sources or {}).items():
        if value:
            argv += ["--set", f"{key}={json.dumps(value if key != 'decks' or len(value) == 2 else value * 2)}"]
    return int(train_main(argv) or 0)


def run_evaluate(args: argparse.Namespace) -> int:
    try:
        from tqdm import tqdm

        from ccg_env.training.checkpoint_eval import evaluate_checkpoints, output_paths, summary
    except ImportError as error:
        print(f"ccg-env evaluate: needs the training extras ({error}): pip install 'ccg-env[train]'", file=sys.stderr)
        return 2

    def advance(result: object, total: int) -> None:
        bar.total = total
        bar.update(1)

    opponent = None
    if args.opponent is not None:
        from ccg_env.agents.arena import parse_agent_spec

        name, options = parse_agent_spec(args.opponent)
        opponent = {"name": name, **options} if options else name
    try:
        with tqdm(desc="checkpoints", unit="checkpoint", disable=args.no_progress or not sys.stderr.isatty()) as bar:
            results = evaluate_checkpoints(args.run_dir, args.games, args.seed, args.envs, opponent,
                                           on_result=advance)
    except ImportError as error:  # an RLlib run without the rllib extra
        print(f"ccg-env evaluate: {error}", file=sys.stderr)
        return 2
    print(summary(results))
    table, plot = output_paths(args.run_dir, results[0].opponent)
    print(f"wrote {table} and {plot.name} beside it")
    return 0


def run_dataset(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from ccg_env.training.dataset import generate

    with tqdm(total=args.decisions, desc="dataset", unit="decision", unit_scale=True,
              disable=args.no_progress) as bar:
        summary = generate(args.agent, args.decisions, args.seed, args.out, args.dataset_id, args.opponent,
                           bar.update)
    print(summary.line())
    return 0


def run_bc(args: argparse.Namespace) -> int:
    from ccg_env.extras import require_extra

    require_extra("train", "ccg-env bc")
    require_extra("dataset", "ccg-env bc")
    from ccg_env.training.bc import clone

    result = clone(args.dataset, args.out, args.config, args.epochs, seed=args.seed,
                   on_epoch=lambda epoch: print(f"epoch {epoch.epoch}: held-out accuracy "
                                                f"{epoch.held_out_accuracy:.3f}", flush=True))
    print(f"wrote {result.path}: {args.config}'s policy fitted to {result.decisions:,} decisions of "
          f"{result.games:,} games; play it with: ccg-env arena --agents learned:path={result.path} heuristic")
    return 0


def run_bench(args: argparse.Namespace) -> int:
    from ccg_env.agents.bench import run_benchmarks

    agents = with_trust(args.agents) if args.trust_model else args.agents
    print(run_benchmarks(args.seconds, args.repeats, agents, args.games))
    return 0


def run_model(args: argparse.Namespace) -> int:
    from ccg_env.model_file import describe, read_metadata

    if args.model_command == "inspect":
        print(describe(read_metadata(args.path)))
        return 0
    try:
        from ccg_env.saved_policy import convert
    except ImportError as error:
        print(f"ccg-env model convert needs torch and sb3-contrib ({error}): pip install 'ccg-env[train]'",
              file=sys.stderr)
        return 2
    written = convert(args.source, args.destination, trust=args.trust_model, rules=args.rules, cards=args.cards)
    print(f"wrote {written} ({written.stat().st_size:,} bytes); it loads without running code from the file:\n"
          f"  ccg-env arena --agents learned:path={written} heuristic")
    return 0


def run_deck(args: argparse.Namespace) -> int:
    from ccg_env.engine import DataError

    if args.deck_command == "validate":
        try:
            data = load_game_data(args.cards, None, args.rules)
            print(validate_deck_file(args.file, data))
        except (DataError, ValueError, OSError) as error:
            print(f"ccg-env deck validate: error: {terminal_safe(error_message(error))}", file=sys.stderr)
            return 1
        return 0
    return _build_deck(args)


def validate_deck_file(path: str, data: GameData) -> str:
    """Load a deck file against the rules and cards of ``data``; return the OK line with its summary.

    Raises:
        DataError: the deck breaks a rule (the message names the file, the deck and the card or field).
    """
    from ccg_env.engine import Rules, default_cards, load_deck

    cards = data.cards if data.cards is not None else default_cards()
    rules = data.rules if data.rules is not None else Rules.load()
    if not Path(path).is_file():
        raise ValueError(f"{path}: no such deck file")
    deck = load_deck(path, cards, rules)
    return f"OK {path}: {deck_summary(deck, cards)}"


def deck_summary(deck, cards) -> str:
    """One line: name, hero, size, distinct cards, card types and the mana curve (costs 0..6, 7+)."""
    from collections import Counter

    picked = [cards[card_id] for card_id in deck.cards]
    types = Counter(card.card_type.value for card in picked)
    curve = Counter(min(card.cost, 7) for card in picked)
    return (f"deck {deck.name!r}, hero {deck.hero.value}, {len(picked)} cards ({len(set(deck.cards))} distinct); "
            + ", ".join(f"{n} {kind}" for kind, n in sorted(types.items())) + "; curve "
            + " ".join(f"{cost}{'+' if cost == 7 else ''}:{curve[cost]}" for cost in range(8)))


def _build_deck(args: argparse.Namespace) -> int:
    from ccg_env.agents.draft import build_deck, deck_yaml
    from ccg_env.engine import Rules, default_cards
    from ccg_env.engine.decks import parse_deck
    from ccg_env.engine.vocabulary import CardClass
    import yaml

    data = load_game_data(args.cards, None, args.rules)
    cards = data.cards if data.cards is not None else default_cards()
    rules = data.rules if data.rules is not None else Rules.load()
    deck = build_deck(cards, rules, CardClass(args.hero), args.strategy, args.seed, args.name)
    text = deck_yaml(deck)
    parse_deck(yaml.safe_load(text), cards, rules, source="<built deck>")  # what a reader of the file will check
    if args.out is None:
        print(text, end="")
        return 0
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {deck_summary(deck, cards)}", file=sys.stderr)
    return 0


COMMANDS = {"arena": run_arena, "balance": run_balance, "ladder": run_ladder, "exploit": run_exploit,
            "play": run_play, "train": run_train, "dataset": run_dataset, "bc": run_bc,
            "evaluate": run_evaluate, "bench": run_bench, "replay": run_replay, "view": run_view, "serve": run_serve,
            "model": run_model, "deck": run_deck}


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ccg-env`` with ``argv`` (default: the command line); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        print(f"ccg-env: give a command ({', '.join(COMMANDS)}); 'ccg-env --help' describes them", file=sys.stderr)
        return 2
    try:
        return COMMANDS[args.command](args)
    except (ValueError, OSError, MissingExtraError) as error:  # one line, no traceback
        parser.exit(2, f"ccg-env {args.command}: error: {terminal_safe(error_message(error))}\n")
    return 1


_ERROR_PREFIX = re.compile(r"^\s*(?:[A-Za-z_.]*(?:Error|Exception)|error)\s*:\s*")


def error_message(error: BaseException) -> str:
    """An exception's text for the one-line "error:" message: without a leading "Error:" or "ValueError:" of its
    own (the line already says error), on one line, and never empty (then the exception's type name)."""
    text = " ".join(str(error).split())
    while _ERROR_PREFIX.match(text):
        text = _ERROR_PREFIX.sub("", text, count=1)
    return text or type(error).__name__


if __name__ == "__main__":
    raise SystemExit(main())
