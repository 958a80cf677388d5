"""Fuzz the engine: seeded random and heuristic play over all packaged decks, every invariant after every action.

Usage::

    python benchmarks/fuzz.py --actions 1000000 --seed 0 --workers 2
    python benchmarks/fuzz.py --cards random --actions 100000   # randomly generated card definitions
    python benchmarks/fuzz.py --cards generated --actions 100000   # the card generator's pools and decks
    python benchmarks/fuzz.py --mode draft --actions 300000     # random drafts, then random battles
    python benchmarks/fuzz.py --replay fuzz-failures/1234.json

With ``--cards random`` every game plays its own card set, generated from the seed over the whole card
vocabulary (every card type, trigger, effect, selector, mark, filter and keyword; some sets also get cards
that loop on purpose), with random decks of it, in random play: a user's cards must not crash or hang the
engine. These cards are hostile on purpose (any cost, odd marks and zones, amounts at the cap), so they have a
generator of their own here. With ``--cards generated`` every ten games share a pool of the product's card
generator (``generated:seed=S,size=N``, :mod:`ccg_env.engine.generated_pool`, sizes 20 to 80) and play two of
its own decks drawn with the game's seed, random and heuristic play as with the packaged cards. Each ``apply`` is
bounded: it must return within ``APPLY_TIMEOUT`` seconds (a SIGALRM otherwise) and set off at most the action
system's ``MAX_ACTIONS_PER_ROOT`` actions; looping games end as ``loop``.

With ``--mode draft`` every game starts with a draft (:mod:`ccg_env.engine.draft`) from its seed: both seats pick
at random (hero classes drawn from the seed), every pick counted as an action, and after each pick the fuzzer
checks that the offer holds up to three distinct cards the seat's deck may take (collectible, neutral or its class,
below the copy limit), that the env core's mask of the game in its draft is exactly the offered picks and, at sampled
positions, that every one of the ``N`` ids is accepted by ``EnvCore.play`` on a clone exactly when masked and that
a clone deals the same next offers; at the end both decks must load through the deck rules (``parse_deck``: size,
copies, class). The battle with the drafted decks is then played at random with every check below. A failure file of a
draft game replays the draft from the seed, then its battle choices.

After every action the fuzzer checks:

- the engine invariants (:mod:`ccg_env.engine.invariants`, including "no card lost" across actions and the
  reaction-tree log when the game logs);
- the action mask against the legal set: ones exactly at the encoded legal choices, no two choices sharing
  an id, every id decoding back to its choice, an all-zero mask for the player not on turn; at sampled
  positions every one of the ``N`` ids is tried: each masked id is accepted by ``apply`` on a clone, every
  other id is refused with ``IllegalActionError`` and the state left unchanged;
- at sampled positions, ``Game.from_json(g.to_json()).to_json() == g.to_json()`` and the same for
  ``g.clone()``; now and then play goes on with the restored copy or the clone instead of the original;
- at the end, a recorded result (win, draw, or the turn-limit truncation) within ``max_steps`` actions, no
  legal action left and ``apply`` refused.

A failing game is written to ``fuzz-failures/<seed>.json`` with the seed, decks, policy, logging flag and
the choices as ``[kind, source, target]``; :func:`replay` (``--replay``, ``tests/reliability/test_replay.py``)
plays it again with the same checks, which draw their samples from the seed, so the failure comes back.
Figures (actions/s, totals) are printed, never asserted. Files from others (model files, replays, training
configs) have their own fuzzer, ``benchmarks/fuzz_files.py``.
"""

from __future__ import annotations

import argparse
import atexit
import dataclasses
import json
import multiprocessing
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

import yaml

from ccg_env.cli import positive_int
from ccg_env.engine import (
    ENGINE_BUILD, Choice, ChoiceKind, Game, IllegalActionError, Rules, default_cards, load_cards,
)
from ccg_env.engine.action_system import MAX_ACTIONS_PER_ROOT
from ccg_env.engine.cards import CardLoopWarning, CardSet
from ccg_env.engine.choices import END_TURN, to_action
from ccg_env.engine.decks import Deck, default_deck_paths, resolve_deck
from ccg_env.engine.game_setup import pick_decks
from ccg_env.engine.generated_pool import generated_card_set, spec_text
from ccg_env.engine.targeting import PREDICATES
from ccg_env.engine.vocabulary import KEYWORD_NAMES, SECRET_TRIGGERS, CardClass, EffectKind, Selector, Trigger
from ccg_env.engine.invariants import InvariantMonitor
from ccg_env.env.codec import ActionCodec, ActionLayout
from ccg_env.env.masks import legal_mask

FAILURE_FORMAT = "ccg-env/fuzz-failure"
DEFAULT_OUT = Path("fuzz-failures")


@dataclass(frozen=True)
class FuzzConfig:
    """How often the expensive checks run (per position) and where failures go."""

    exhaustive_rate: float = 0.02  # positions where every action id is tried against apply
    round_trip_rate: float = 0.05  # positions where the JSON round-trip and the clone must equal the state
    restore_rate: float = 0.01  # positions after which play goes on with a JSON copy or a clone
    max_steps: int = 20_000  # a game longer than this never ends: a failure
    out_dir: str | None = str(DEFAULT_OUT)  # None: do not write failure files
    cards: str = "packaged"  # "packaged" decks and cards, "random" card definitions per game, or "generated" pools
    mode: str = "duel"  # "duel" (given decks) or "draft" (random drafts, then random battles)


class FuzzFailure(AssertionError):
    """A fuzz check other than an engine invariant failed; the message starts with the check's name."""

    def __init__(self, check: str, detail: str) -> None:
        super().__init__(f"[{check}] {detail}")
        self.check = check


#: Rules the fuzzer plays under: the defaults, and tight limits that make full hands and boards, overdraw,
#: fatigue and turn-limit truncations common (decks stay legal: same deck size and copies).
RULE_VARIANTS: dict[str, dict[str, int]] = {
    "default": {},
    "tight": {"max_hand": 5, "max_battlefield": 3, "max_secrets": 2, "hero_health": 12, "max_mana": 6,
              "opening_hand_first": 2, "opening_hand_second": 3, "turn_limit": 24, "cards_per_turn": 2},
}


@dataclass(frozen=True)
class GamePlan:
    """Everything that fixes one fuzzed game besides the choices: derived from the seed alone."""

    seed: int
    decks: tuple[str, str]
    policy: str  # "random" or "heuristic"
    log: bool
    rules: str = "default"  # a key of RULE_VARIANTS
    cards: str = "packaged"  # or "random": a card set and two decks generated from the seed; or "generated"
    #: the hero class each seat plays when its deck is neutral (neutral cards go in any class's deck), so that
    #: every hero power is fuzzed; a class deck keeps its own hero
    heroes: tuple[str, str] = ("neutral", "neutral")

    @property
    def game_rules(self) -> Rules:
        return dataclasses.replace(Rules.load(), **RULE_VARIANTS[self.rules])

    def new_game(self, decks: Any = None) -> Game:
        """The game this plan starts from (with ``decks``, the drafted pair, in draft mode)."""
        rules = self.game_rules
        if decks is not None:
            return Game.new(seed=self.seed, decks=list(decks), rules=rules, log=self.log)
        if self.cards == "generated":
            pool = generated_card_set(spec_text(self.seed // 10, 20 + (self.seed // 10) % 61))
            return Game.new(seed=self.seed, decks=list(pick_decks(pool.decks(rules), self.seed)), rules=rules,
                            cards=pool, log=self.log)
        if self.cards == "random":
            cards = random_card_set(self.seed)
            return Game.new(seed=self.seed, decks=random_decks(self.seed, cards), rules=rules, cards=cards,
                            log=self.log)
        decks = [resolve_deck(name, default_cards(), rules) for name in self.decks]
        decks = [dataclasses.replace(deck, hero=CardClass(hero)) if deck.hero is CardClass.NEUTRAL else deck
                 for deck, hero in zip(decks, self.heroes)]
        return Game.new(seed=self.seed, decks=decks, rules=rules, log=self.log)


def plan_game(seed: int, cards: str = "packaged", mode: str = "duel") -> GamePlan:
    """Pick the decks, policy, logging and rules of game ``seed`` (odd seeds play the heuristic).

    Games of random cards play random choices (the heuristic is not what they test) and log every other game;
    so do draft games, whose decks are drafted at random from the seed.
    """
    names = sorted(default_deck_paths())
    rng = random.Random(seed)
    if mode == "draft":
        return GamePlan(seed, ("draft", "draft"), "random", log=seed % 2 == 0,
                        rules="tight" if seed % 5 == 4 else "default")
    if cards == "random":
        return GamePlan(seed, ("random", "random"), "random", log=seed % 2 == 0,
                        rules="tight" if seed % 5 == 4 else "default", cards="random")
    if cards == "generated":
        return GamePlan(seed, ("generated", "generated"), "heuristic" if seed % 2 else "random",
                        log=seed % 4 < 2, rules="tight" if seed % 5 == 4 else "default", cards="generated")
    decks = (rng.choice(names), rng.choice(names))
    heroes = (rng.choice(_HERO_CLASSES), rng.choice(_HERO_CLASSES))
    return GamePlan(seed, decks, "heuristic" if seed % 2 else "random", log=seed % 4 < 2,
                    rules="tight" if seed % 5 == 4 else "default", heroes=heroes)


_HERO_CLASSES = [c.value for c in CardClass]


# --- random card definitions -------------------------------------------------------------------------

#: Cards generated per game (and minion tokens beside them, summoned by effects only).
RANDOM_CARDS, RANDOM_TOKENS = 20, 4
_TYPES = ("minion",) * 6 + ("spell",) * 3 + ("weapon", "secret")
_PLAIN_TRIGGERS = [t.value for t in Trigger if t not in SECRET_TRIGGERS and t is not Trigger.DEATHRATTLE]
_AMOUNTS = {"damage": (1, 6), "heal": (1, 6), "draw": (1, 3), "summon": (1, 3), "gain_armor": (1, 8),
            "gain_mana": (1, 3)}
_ZONE_CHOICES = ("active", "battlefield", "hero", "hand", "weapon", "deck", "graveyard", "secrets",
                 ["hero", "battlefield"], ["hand", "deck"])
#: Cards that loop on purpose, added to some random sets: the engine must end their games as loops.
LOOPERS = [
    {"id": "fuzz_self_harmer", "name": "Self Harmer", "type": "minion", "cost": 1, "attack": 1, "health": 3,
     "abilities": [{"trigger": "self_damaged", "effect": "damage", "amount": 1, "select": "self"}]},
    {"id": "fuzz_phoenix", "name": "Phoenix", "type": "minion", "cost": 2, "attack": 1, "health": 1,
     "abilities": [{"trigger": "deathrattle", "effect": "summon", "card": "fuzz_phoenix"}]},
    {"id": "fuzz_summon_hater", "name": "Summon Hater", "type": "minion", "cost": 2, "attack": 1, "health": 4,
     "abilities": [{"trigger": "minion_summoned", "effect": "damage", "amount": 1, "select": "trigger_card"}]},
]


def random_mark(rng: random.Random) -> dict[str, Any]:
    """A random mark: alliance, zones, and sometimes types, exclusions and filters."""
    mark: dict[str, Any] = {"alliance": rng.choice(["ally", "enemy", "any"]), "zones": rng.choice(_ZONE_CHOICES)}
    if rng.random() < 0.2:
        mark["types"] = rng.sample(["minion", "hero", "spell", "weapon", "secret"], rng.randint(1, 2))
    if rng.random() < 0.2:
        mark["exclude"] = [rng.choice(["minion", "hero"])]
    if rng.random() < 0.2:
        mark["filters"] = rng.sample(sorted(PREDICATES), rng.randint(1, 2))
    return mark


def random_ability(rng: random.Random, card_type: str, trigger: str, targeted: bool,
                   ids: dict[str, list[str]]) -> dict[str, Any]:
    """One valid ability of ``card_type`` firing on ``trigger``, with a random effect and selector."""
    effect = rng.choice([e.value for e in EffectKind])
    ability: dict[str, Any] = {"trigger": trigger, "effect": effect}
    selectors = [s.value for s in Selector if s is not Selector.CHOSEN or (targeted and trigger == "battlecry")]
    ability["select"] = "chosen" if targeted and trigger == "battlecry" and rng.random() < 0.7 else \
        rng.choice(selectors)
    if ability["select"] in ("all", "random"):
        ability["mark"] = random_mark(rng)
        if ability["select"] == "random":
            ability["count"] = rng.randint(1, 3)
    if effect in _AMOUNTS:
        low, high = _AMOUNTS[effect]
        ability["amount"] = rng.randint(low, high) if rng.random() < 0.97 else 100  # now and then the cap
    if effect == "buff":
        ability["attack"], ability["health"] = rng.randint(-2, 4), rng.randint(-2, 4)
    if effect == "give_keyword":
        ability["keyword"] = rng.choice(sorted(KEYWORD_NAMES))
    if effect == "summon":
        ability["card"] = rng.choice(ids["minion"])
    if effect == "equip_weapon":
        ability["card"] = rng.choice(ids["weapon"])
    return ability


def random_card(rng: random.Random, card_id: str, card_type: str, ids: dict[str, list[str]],
                collectible: bool = True) -> dict[str, Any]:
    """A valid card definition of ``card_type`` with random stats, keywords, target spec and abilities."""
    card: dict[str, Any] = {"id": card_id, "name": card_id.replace("_", " ").title(), "type": card_type,
                            "cost": rng.randint(0, 8) if rng.random() < 0.95 else 20, "collectible": collectible}
    if card_type == "minion":
        card["attack"], card["health"] = rng.randint(0, 7), rng.randint(1, 8)
    elif card_type == "weapon":
        card["attack"], card["durability"] = rng.randint(1, 5), rng.randint(1, 4)
    if card_type in ("minion", "weapon") and rng.random() < 0.4:
        card["keywords"] = rng.sample(sorted(KEYWORD_NAMES), rng.randint(1, 2))
    targeted = card_type != "secret" and rng.random() < 0.4
    if targeted:  # chosen targets stay among characters in play: the env's action layout encodes only those
        card["target"] = {"required": rng.random() < 0.7,
                          "allowed": {**random_mark(rng), "zones": rng.choice(["active", "hero", "battlefield"])}}
    triggers = [rng.choice(sorted(t.value for t in SECRET_TRIGGERS))] if card_type == "secret" else []
    plain = _PLAIN_TRIGGERS + (["deathrattle"] if card_type == "minion" else [])
    triggers += [rng.choice(plain) for _ in range(rng.randint(0 if card_type != "spell" else 1, 3))]
    if targeted:
        triggers.insert(0, "battlecry")
    card["abilities"] = [random_ability(rng, card_type, t, targeted and i == 0, ids) for i, t in enumerate(triggers)]
    if targeted and card["abilities"][0]["select"] != "chosen":
        card["abilities"][0]["select"] = "chosen"  # a target spec needs an ability acting on the chosen target
        card["abilities"][0].pop("mark", None)
        card["abilities"][0].pop("count", None)
    return card


def random_card_file(seed: int) -> list[dict[str, Any]]:
    """The card definitions of game ``seed``: ``RANDOM_CARDS`` collectible cards, tokens, maybe the loopers."""
    rng = random.Random(f"cards-{seed}")
    types = ["minion", "weapon"] + [rng.choice(_TYPES) for _ in range(RANDOM_CARDS - 2)]
    ids = {t: [f"fuzz_{i}" for i, kind in enumerate(types) if kind == t] for t in set(_TYPES)}
    tokens = [f"fuzz_token_{i}" for i in range(RANDOM_TOKENS)]
    ids["minion"] += tokens
    cards = [random_card(rng, f"fuzz_{i}", kind, ids) for i, kind in enumerate(types)]
    cards += [random_card(rng, token, "minion", ids, collectible=False) for token in tokens]
    if rng.random() < 0.2:
        cards += [dict(card) for card in LOOPERS]
    return cards


_CARD_DIR: list[str] = []


class _PlainDumper(yaml.SafeDumper):
    """Writes shared values out in full: data files may not use anchors and aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def random_card_set(seed: int) -> CardSet:
    """Write game ``seed``'s card definitions to a YAML file, load it as any user's file, add the packaged set."""
    if not _CARD_DIR:
        _CARD_DIR.append(tempfile.mkdtemp(prefix="ccg-fuzz-cards-"))
        atexit.register(shutil.rmtree, _CARD_DIR[0], ignore_errors=True)
    path = Path(_CARD_DIR[0]) / f"cards-{seed}.yaml"
    path.write_text(yaml.dump({"cards": random_card_file(seed)}, Dumper=_PlainDumper, sort_keys=False))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CardLoopWarning)  # the loopers are on purpose
            generated = load_cards([path])
    finally:
        path.unlink()
    packaged = default_cards()
    return CardSet({**packaged, **generated}, packaged.sources + generated.sources)


def random_decks(seed: int, cards: CardSet) -> list[Deck]:
    """Two 30-card decks of two copies each: mostly generated cards, some packaged ones."""
    rng = random.Random(f"decks-{seed}")
    generated = sorted(c.id for c in cards.values() if c.collectible and c.id.startswith("fuzz_"))
    packaged = sorted(c.id for c in cards.values() if c.collectible and not c.id.startswith("fuzz_"))
    decks = []
    for seat in (0, 1):
        picks = rng.sample(generated, min(12, len(generated))) + rng.sample(packaged, 15 - min(12, len(generated)))
        decks.append(Deck(f"random {seat}", tuple(card for card in picks for _ in range(2))))
    return decks


# --- policies ----------------------------------------------------------------------------------------


def greedy_choice(game: Game, legal: list[Choice]) -> Choice:
    """A simple greedy player: the costliest play, then attacks (face last), then end turn."""
    state = game.state
    enemy_hero = state.players[1 - state.current].hero.uid
    plays = [c for c in legal if c.kind is ChoiceKind.PLAY]
    if plays:
        return max(plays, key=lambda c: state.find(c.source).cost)
    attacks = [c for c in legal if c.kind is ChoiceKind.ATTACK]
    trades = [c for c in attacks if c.target != enemy_hero]
    return (trades or attacks or [END_TURN])[0]


_HEURISTIC: Any = None


def _heuristic_agent() -> Any:
    """``make_agent("heuristic")`` once per process, or False when ccg_env/agents/heuristic.py cannot be loaded."""
    global _HEURISTIC
    if _HEURISTIC is None:
        try:
            from ccg_env.agent_api import make_agent

            _HEURISTIC = make_agent("heuristic")
        except Exception:  # noqa: BLE001 - any import problem means: use the greedy fallback
            _HEURISTIC = False
    return _HEURISTIC


def heuristic_name() -> str:
    """Which heuristic the fuzzer plays: the project's agent, or its own greedy fallback."""
    return "heuristic" if _heuristic_agent() else "greedy"


def make_policy(plan: GamePlan, codec: ActionCodec, epsilon: float = 0.1) -> Callable[[Game], Choice]:
    """The plan's policy; the heuristic explores with a random legal choice an ``epsilon`` of the time."""
    rng = random.Random(plan.seed * 2 + 1)
    if plan.policy == "random":
        return lambda game: rng.choice(game.legal_actions())
    agent = _heuristic_agent()
    from ccg_env.engine.view import GameView

    def heuristic(game: Game) -> Choice:
        legal = game.legal_actions()
        if rng.random() < epsilon:
            return rng.choice(legal)
        if not agent:
            return greedy_choice(game, legal)
        mask = np.zeros(codec.layout.size, dtype=np.int8)
        mask[codec.encode_all(game, legal)] = 1
        action_id = agent.act(None, mask, GameView(game, game.current_player, codec))
        if not mask[action_id]:
            raise FuzzFailure("agent", f"the heuristic picked id {action_id}, which the mask forbids")
        return codec.decode(game, action_id)

    return heuristic


# --- checks ------------------------------------------------------------------------------------------


@dataclass
class CheckCounts:
    """How many of each sampled check ran."""

    exhaustive: int = 0
    round_trips: int = 0
    draft_picks: int = 0  # draft mode: picks made (counted as actions)
    draft_exhaustive: int = 0  # draft positions where every id was tried
    restores: int = 0
    loops: int = 0  # games the engine ended as loops (Result.LOOP)
    slowest_apply_ms: float = 0.0  # the longest single apply (a maximum, not a count)
    most_actions: int = 0  # the most actions one apply set off, when the game logs (a maximum)


class StepChecker:
    """Runs every check after each action; sampled checks draw from a generator seeded by the game seed."""

    def __init__(self, game: Game, seed: int, config: FuzzConfig) -> None:
        self.monitor = InvariantMonitor(game)
        self.rng = random.Random(seed ^ 0x5EED)
        self.codec = ActionCodec(ActionLayout.for_rules(game.state.rules))
        self.mask = np.zeros(self.codec.layout.size, dtype=np.int8)
        self.config = config
        self.counts = CheckCounts()

    def check(self, game: Game) -> Game:
        """Check the position after an action; return the game to go on with (maybe a restored copy)."""
        self.monitor.check()
        if game.is_over:
            check_game_over(game, self.codec, self.mask)
            return game
        check_mask(game, self.codec, self.mask)
        draws = self.rng.random(), self.rng.random(), self.rng.random()
        if draws[0] < self.config.exhaustive_rate:
            check_every_id(game, self.codec, self.mask)
            self.counts.exhaustive += 1
        if draws[1] < self.config.round_trip_rate:
            check_round_trip(game)
            self.counts.round_trips += 1
        if draws[2] < self.config.restore_rate:
            game = Game.from_json(game.to_json(), cards=game.cards) if self.rng.random() < 0.5 else game.clone()
            self.monitor.rebind(game)
            self.counts.restores += 1
        return game


def check_mask(game: Game, codec: ActionCodec, mask: np.ndarray) -> list[Choice]:
    """The mask has ones exactly at the legal choices' ids, each decoding back to its choice."""
    me = game.current_player
    legal_mask(game, codec, 1 - me, mask)
    if mask.any():
        raise FuzzFailure("mask", f"player {1 - me}, not on turn, has ids {np.flatnonzero(mask).tolist()}")
    legal = game.legal_actions()
    ids = codec.encode_all(game, legal)
    legal_mask(game, codec, me, mask)
    if len(set(ids)) != len(ids):
        raise FuzzFailure("mask", f"two legal choices share an action id: {sorted(ids)}")
    if sorted(ids) != np.flatnonzero(mask).tolist():
        raise FuzzFailure("mask", f"mask ones {np.flatnonzero(mask).tolist()} != legal ids {sorted(ids)}")
    for action_id, choice in zip(ids, legal):
        if codec.decode(game, action_id) != choice:
            raise FuzzFailure("mask", f"id {action_id} decodes to {codec.decode(game, action_id)}, not {choice}")
    return legal


def check_every_id(game: Game, codec: ActionCodec, mask: np.ndarray) -> None:
    """Every masked id is accepted by ``apply`` (on a clone); every other id is refused, state unchanged.

    ``apply`` accepts what legal-move generation lists, so each id's choice is also put to the rules'
    validators directly (the action it stands for, as a directly performed action would be): they must
    accept exactly the masked ids.
    """
    before = game.to_json()
    for action_id in range(codec.layout.size):
        choice = codec.decode(game, action_id)
        if choice is not None and validators_accept(game, choice) != bool(mask[action_id]):
            raise FuzzFailure("mask", f"id {action_id} ({choice}): masked {bool(mask[action_id])} but the "
                                      f"validators {'accept' if not mask[action_id] else 'refuse'} it")
        if mask[action_id]:
            try:
                game.clone().apply(choice)
            except IllegalActionError as exc:
                raise FuzzFailure("mask", f"masked id {action_id} ({choice}) refused by apply: {exc}") from None
        elif choice is not None:
            try:
                game.apply(choice)
            except IllegalActionError:
                continue
            raise FuzzFailure("mask", f"unmasked id {action_id} ({choice}) was accepted by apply")
    if game.to_json() != before:
        raise FuzzFailure("refusal", "a refused action changed the state")


def validators_accept(game: Game, choice: Choice) -> bool:
    """Whether the rules' validators accept the root action a choice stands for (no legal-move list involved)."""
    action = to_action(game, choice)
    return not isinstance(action, str) and game.actions.refusal(game, action) is None


def check_round_trip(game: Game) -> None:
    """The JSON round-trip and the clone serialise exactly like the game."""
    text = game.to_json()
    if Game.from_json(text, cards=game.cards).to_json() != text:
        raise FuzzFailure("json-round-trip", "Game.from_json(g.to_json()).to_json() != g.to_json()")
    if game.clone().to_json() != text:
        raise FuzzFailure("clone", "g.clone().to_json() != g.to_json()")


def check_game_over(game: Game, codec: ActionCodec, mask: np.ndarray) -> None:
    """A finished game has a result, no legal action, all-zero masks, and refuses ``apply``."""
    if game.result is None or game.legal_actions():
        raise FuzzFailure("game-over", f"over with result {game.result} and legal {game.legal_actions()}")
    for player in (0, 1):
        legal_mask(game, codec, player, mask)
        if mask.any():
            raise FuzzFailure("game-over", f"player {player} has mask ids after the end")
    before = game.to_json()
    try:
        game.apply(END_TURN)
    except IllegalActionError:
        if game.to_json() == before:
            return
    raise FuzzFailure("game-over", "apply after the end was accepted or changed the state")


# --- playing, recording, replaying -------------------------------------------------------------------


@dataclass
class GameOutcome:
    """What one fuzzed game did."""

    seed: int
    policy: str
    steps: int
    result: str | None
    counts: CheckCounts
    failure: str | None = None
    failure_file: str | None = None


def play(plan: GamePlan, config: FuzzConfig, taken: list[Choice],
         choices: Iterator[Choice] | None = None) -> tuple[Game, CheckCounts]:
    """Play ``plan`` with every check (its policy, or the given ``choices`` until they run out).

    ``taken`` receives each choice before it is applied, so a failure leaves the reproducing list there.
    """
    drafted = None
    if plan.decks == ("draft", "draft"):
        drafted, picks, draft_exhaustive = fuzz_draft(plan, config)
    game = plan.new_game(drafted)
    checker = StepChecker(game, plan.seed, config)
    if drafted is not None:
        checker.counts.draft_picks, checker.counts.draft_exhaustive = picks, draft_exhaustive
    game = checker.check(game)
    policy = make_policy(plan, checker.codec) if choices is None else None
    while not game.is_over:
        if len(taken) >= config.max_steps:
            raise FuzzFailure("no-end", f"no result after {len(taken)} actions (turn {game.turn})")
        choice = policy(game) if policy is not None else next(choices, None)
        if choice is None:
            break
        taken.append(choice)
        bounded_apply(game, choice, checker.counts)
        game = checker.check(game)
    if game.result is not None and game.result.value == "loop":
        checker.counts.loops += 1
    return game, checker.counts


#: Seconds one apply may take before the fuzzer calls it a hang (the engine's bounds keep it to milliseconds).
APPLY_TIMEOUT = 20


def _hang(signum: int, frame: Any) -> None:
    raise FuzzFailure("hang", f"an apply took more than {APPLY_TIMEOUT} s")


def bounded_apply(game: Game, choice: Choice, counts: CheckCounts) -> None:
    """Apply a choice under a SIGALRM watchdog; record its time and (logging) the actions it set off."""
    watchdog = hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread()
    if watchdog:
        previous = signal.signal(signal.SIGALRM, _hang)
        signal.alarm(APPLY_TIMEOUT)
    log_size = len(game.log)
    start = time.perf_counter()
    try:
        game.apply(choice)
    finally:
        if watchdog:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
    counts.slowest_apply_ms = max(counts.slowest_apply_ms, (time.perf_counter() - start) * 1000)
    actions = len(game.log) - log_size
    counts.most_actions = max(counts.most_actions, actions)
    if actions > MAX_ACTIONS_PER_ROOT + 1:  # the bound, plus the StopLoop that ends a looping game
        raise FuzzFailure("unbounded", f"{choice} set off {actions} actions, above the bound {MAX_ACTIONS_PER_ROOT}")


def fuzz_game(seed: int, config: FuzzConfig) -> GameOutcome:
    """Play one seeded game with every check; on a failure write the reproducing file."""
    plan = plan_game(seed, config.cards, config.mode)
    policy = plan.policy if plan.policy == "random" else heuristic_name()
    taken: list[Choice] = []
    try:
        game, counts = play(plan, config, taken)
    except Exception as exc:  # noqa: BLE001 - any exception is a finding to record
        message = f"{type(exc).__name__}: {exc}"
        path = write_failure(plan, taken, message, config) if config.out_dir else None
        return GameOutcome(seed, policy, len(taken), None, CheckCounts(), message, path)
    return GameOutcome(seed, policy, len(taken) + counts.draft_picks, game.result.value, counts)


def fuzz_draft(plan: GamePlan, config: FuzzConfig) -> tuple[tuple[Deck, Deck], int, int]:
    """Draft both decks of ``plan`` at random with the draft checks (module documentation); return the decks,
    the picks and the positions where every id was tried."""
    from ccg_env.engine.decks import parse_deck
    from ccg_env.engine.vocabulary import CardClass
    from ccg_env.env.core import EnvCore

    core = EnvCore(rules=plan.game_rules, mode="draft")
    game, rng, picks, exhaustive = core.new_game(plan.seed), random.Random(plan.seed ^ 0xD4AF), 0, 0
    draft = game.draft
    while game.in_draft:
        check_offer(game, core)
        if rng.random() < config.exhaustive_rate * 5:
            check_every_pick(game, core)
            exhaustive += 1
        game.apply(Choice(ChoiceKind.PICK, rng.randrange(len(draft.legal_picks()))))
        picks += 1
    if not draft.is_over or draft.legal_picks() or any(c.kind is ChoiceKind.PICK for c in game.legal_actions()):
        raise FuzzFailure("draft-over", "a finished draft still has legal picks")
    decks = draft.decks()
    for deck in decks:
        counts: dict[str, int] = {}
        for card_id in deck.cards:
            counts[card_id] = counts.get(card_id, 0) + 1
        try:
            parse_deck({"name": deck.name, "hero": deck.hero.value, "cards": counts}, core.cards, core.rules,
                       source="<drafted>")
        except ValueError as exc:
            raise FuzzFailure("draft-deck", f"a drafted deck breaks the deck rules: {exc}") from None
        if deck.hero is CardClass.NEUTRAL:
            raise FuzzFailure("draft-deck", "a drawn hero class is neutral")
    return decks, picks, exhaustive


def check_offer(game: Game, core: Any) -> None:
    """The offer of the seat picking now in a game's draft: 1-3 distinct cards its deck may take; the mask is
    exactly its picks."""
    from ccg_env.engine.draft import OFFER_SIZE
    from ccg_env.engine.vocabulary import CardClass

    draft = game.draft
    side = draft.sides[draft.current]
    offer = side.offer
    if not 1 <= len(offer) <= OFFER_SIZE or len(set(offer)) != len(offer):
        raise FuzzFailure("draft-offer", f"offer {offer} is not 1-{OFFER_SIZE} distinct cards")
    for card_id in offer:
        card = core.cards[card_id]
        if not card.collectible or card.card_class not in (CardClass.NEUTRAL, side.hero):
            raise FuzzFailure("draft-offer", f"{card_id} ({card.card_class.value}) offered to a {side.hero.value}")
        if side.counts.get(card_id, 0) >= core.rules.max_copies:
            raise FuzzFailure("draft-offer", f"{card_id} offered at the copy limit")
    offset = core.codec.layout.draft_offset
    if sorted(core.legal(game)) != [offset + k for k in range(len(offer))]:
        raise FuzzFailure("draft-mask", f"draft mask {sorted(core.legal(game))} != the offer's picks")


def check_every_pick(game: Game, core: Any) -> None:
    """Every id: ``EnvCore.play`` on a clone of a game in its draft accepts exactly the masked ones; a clone deals the
    same next offer."""
    legal = core.legal(game)
    for action_id in range(core.size):
        copy = game.clone()
        if core.play(copy, action_id) != (action_id in legal):
            raise FuzzFailure("draft-mask", f"id {action_id}: masked {action_id in legal} but the core disagrees")
        if action_id in legal:
            again = game.clone()
            again.apply(legal[action_id])
            if [s.offer for s in again.draft.sides] != [s.offer for s in copy.draft.sides]:
                raise FuzzFailure("draft-clone", "two clones dealt different offers after the same pick")
        elif [s.picks for s in copy.draft.sides] != [s.picks for s in game.draft.sides]:
            raise FuzzFailure("draft-refusal", f"a refused id {action_id} changed the draft")


def write_failure(plan: GamePlan, taken: list[Choice], message: str, config: FuzzConfig) -> str:
    """Write ``<out_dir>/<seed>.json``: the plan, the choices as [kind, source, target], the error."""
    out = Path(config.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    doc = {"format": FAILURE_FORMAT, "seed": plan.seed, "decks": list(plan.decks), "policy": plan.policy,
           "log": plan.log, "rules": plan.rules, "cards": plan.cards, "heroes": list(plan.heroes),
           "config": {k: v for k, v in asdict(config).items() if k != "out_dir"},
           "actions": [[c.kind.value, c.source, c.target] for c in taken], "error": message}
    path = out / f"{plan.seed}.json"
    path.write_text(json.dumps(doc, indent=1))
    return str(path)


def load_failure(source: str | Path | dict) -> tuple[GamePlan, FuzzConfig, list[Choice]]:
    """Read a failure file (or its parsed dict) back into a plan, a config and the choices."""
    doc = source if isinstance(source, dict) else json.loads(Path(source).read_text())
    if doc.get("format") != FAILURE_FORMAT:
        raise ValueError(f"{source}: not a fuzz failure file (format {doc.get('format')!r})")
    plan = GamePlan(int(doc["seed"]), tuple(doc["decks"]), doc["policy"], bool(doc["log"]),
                    doc.get("rules", "default"), doc.get("cards", "packaged"),
                    tuple(doc.get("heroes", ("neutral", "neutral"))))
    config = FuzzConfig(**doc.get("config", {}), out_dir=None)
    choices = [Choice(ChoiceKind(kind), source, target) for kind, source, target in doc["actions"]]
    return plan, config, choices


def replay(source: str | Path | dict) -> Game:
    """Play a failure file's choices again with the same checks; a reproduced failure raises again.

    Returns:
        The game after the last recorded choice (over, or not when the file stops mid-game).
    """
    plan, config, choices = load_failure(source)
    game, _ = play(plan, config, [], iter(choices))
    return game


# --- the benchmark -----------------------------------------------------------------------------------


@dataclass
class Totals:
    """Sums over many games."""

    games: int = 0
    actions: int = 0
    results: Counter = field(default_factory=Counter)
    policies: Counter = field(default_factory=Counter)
    rules: Counter = field(default_factory=Counter)
    deck_pairs: set = field(default_factory=set)
    checks: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    slowest_apply_ms: float = 0.0
    most_actions: int = 0

    def add(self, outcome: GameOutcome, cards: str = "packaged", mode: str = "duel") -> None:
        self.games += 1
        self.actions += outcome.steps
        self.results[outcome.result or "failed"] += 1
        self.policies[outcome.policy] += 1
        plan = plan_game(outcome.seed, cards, mode)
        self.rules[plan.rules] += 1
        self.deck_pairs.add(plan.decks)
        counts = asdict(outcome.counts)
        self.slowest_apply_ms = max(self.slowest_apply_ms, counts.pop("slowest_apply_ms"))
        self.most_actions = max(self.most_actions, counts.pop("most_actions"))
        self.checks.update(counts)
        if outcome.failure:
            self.failures.append((outcome.seed, outcome.failure, outcome.failure_file))


def run_chunk(task: tuple[int, int, FuzzConfig]) -> list[GameOutcome]:
    """Fuzz games ``first .. first + count - 1`` (one unit of work for a worker process)."""
    first, count, config = task
    return [fuzz_game(seed, config) for seed in range(first, first + count)]


def run(actions: int, seed: int, workers: int, config: FuzzConfig, chunk: int = 10,
        progress: bool = True) -> Totals:
    """Fuzz games ``seed, seed + 1, ...`` until at least ``actions`` actions were played."""
    from tqdm import tqdm

    totals = Totals()
    tasks = ((seed + i * chunk, chunk, config) for i in range(10**12))
    bar = tqdm(total=actions, unit="action", disable=not progress, smoothing=0.1)
    pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None
    try:
        results = pool.imap(run_chunk, tasks) if pool else map(run_chunk, tasks)
        for outcomes in results:
            before = totals.actions
            for outcome in outcomes:
                totals.add(outcome, config.cards, config.mode)
            bar.update(totals.actions - before)
            bar.set_postfix(failures=len(totals.failures))
            if totals.actions >= actions:
                break
    finally:
        bar.close()
        if pool:
            pool.terminate()
    return totals


def report(totals: Totals, seconds: float) -> str:
    """The figures of a run, one per line."""
    lines = [f"actions: {totals.actions:,} in {totals.games:,} games, {seconds:.1f} s "
             f"({totals.actions / seconds:,.0f} actions/s, checks included)",
             f"results: {dict(totals.results)}", f"policies: {dict(totals.policies)}",
             f"rules: {dict(totals.rules)}",
             f"deck pairs covered: {len(totals.deck_pairs)} of {len(default_deck_paths()) ** 2}"
             if totals.deck_pairs not in ({("random", "random")}, {("draft", "draft")}, {("generated", "generated")})
             else "decks: drafted per game" if totals.deck_pairs == {("draft", "draft")}
             else "cards: a generated pool and two of its decks per ten games"
             if totals.deck_pairs == {("generated", "generated")}
             else "cards: a generated card set and decks per game",
             f"sampled checks: {dict(totals.checks)}",
             f"slowest apply: {totals.slowest_apply_ms:.1f} ms; most actions set off by one apply (logged games): "
             f"{totals.most_actions:,} (bound {MAX_ACTIONS_PER_ROOT:,})",
             f"failures: {len(totals.failures)}"]
    lines += [f"  seed {seed}: {message[:300]} -> {path}" for seed, message, path in totals.failures[:20]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=positive_int, default=100_000, help="stop after this many actions")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (games use seed, seed+1...)")
    parser.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="directory for failure files")
    parser.add_argument("--exhaustive-rate", type=float, default=FuzzConfig.exhaustive_rate,
                        help="share of positions where every action id is tried on a clone")
    parser.add_argument("--round-trip-rate", type=float, default=FuzzConfig.round_trip_rate,
                        help="share of positions checked through to_json/from_json and clone()")
    parser.add_argument("--cards", choices=("packaged", "random", "generated"), default="packaged",
                        help="play the packaged decks, a hostile random card set and decks per game, or the card "
                             "generator's pools (generated:seed=S,size=N) with their own decks")
    parser.add_argument("--mode", choices=("duel", "draft"), default="duel",
                        help="duel: play given decks; draft: random drafts (picks counted as actions), then "
                             "random battles with the drafted decks")
    parser.add_argument("--no-progress", action="store_true", help="no tqdm bar")
    parser.add_argument("--replay", metavar="FILE", help="replay one failure file and exit")
    args = parser.parse_args(argv)
    if args.replay:
        game = replay(args.replay)
        print(f"replayed {args.replay} without a failure: {game!r}")
        return 0
    if args.mode == "draft" and args.cards != "packaged":
        parser.error(f"--mode draft drafts from the packaged cards: leave out --cards {args.cards}")
    config = FuzzConfig(args.exhaustive_rate, args.round_trip_rate, out_dir=args.out, cards=args.cards,
                        mode=args.mode)
    print(f"engine build: {ENGINE_BUILD}")
    players = ("random drafts, then random play" if args.mode == "draft" else "random play"
               if args.cards == "random" else f"random and {heuristic_name()} play")
    print(f"fuzzing {args.actions:,} actions from seed {args.seed} with {args.workers} worker(s), "
          f"cards: {args.cards}, {players}")
    start = time.perf_counter()
    totals = run(args.actions, args.seed, args.workers, config, progress=not args.no_progress)
    print(report(totals, time.perf_counter() - start))
    return 1 if totals.failures else 0


if __name__ == "__main__":
    sys.exit(main())
