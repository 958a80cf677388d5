"""The PettingZoo AEC environment ``ccg_env_v1``: a two-player card game duel with action masks.

Two players duel with 30-card decks under the rules in ``configs/rules/default.yaml``. The rules engine
(:mod:`ccg_env.engine`) runs headless and synchronous behind this env, which only translates between the
engine and spaces, like PettingZoo's tic-tac-toe.

| Creation          | ``ccg_env.env(**config)`` (wrapped), ``ccg_env.raw_env(**config)``         |
|-------------------|----------------------------------------------------------------------------|
| Agents            | ``["player_0", "player_1"]`` (``player_0`` moves first)                    |
| Action space      | ``Discrete(N)``, ``N = 1 + H*T + (1 + B)**2 + T + H``, ``T = 3 + 2B`` (262) |
| Observation space | ``Dict(observation=Box(float32, (size,)), action_mask=Box(int8, (N,)))``   |
| Parallel API      | No (``is_parallelizable=False``)                                           |
| Version           | ``version="v1"`` (the default): :mod:`ccg_env.env.versions`                |

``H`` is the hand limit (10), ``B`` the battlefield limit (7), ``C`` the number of cards in the card set.
An agent acts many times per turn: ``agent_selection`` follows the engine's current player and changes only
when a turn ends (or, in the mulligan, when the first player is done and the second decides).

## Action layout

| ids                  | meaning                                          | decoding                               |
|----------------------|--------------------------------------------------|----------------------------------------|
| ``0``                | end turn (in the mulligan: done, keep the rest)  |                                        |
| ``1 .. H*T``         | play hand slot ``h`` at target slot ``t``        | ``h, t = divmod(id - 1, T)``           |
| ``1 + H*T .. P - 1`` | attack with attacker ``a`` at defender ``d``     | ``a, d = divmod(id - 1 - H*T, 1 + B)`` |
| ``P .. P + T - 1``   | use the hero power at target slot ``t``          | ``t = id - P``                         |
| ``M .. M + H - 1``   | mulligan: put back hand slot ``h``               | ``h = id - M``                         |

Target slots (``T = 3 + 2B``): ``0`` no target, ``1`` own hero, ``2 .. B+1`` own minions left to right,
``B+2`` enemy hero, ``B+3 .. 2B+2`` enemy minions. Attackers: ``0`` own hero, ``1 .. B`` own minions.
Defenders: ``0`` enemy hero, ``1 .. B`` enemy minions. The hero power range starts at ``P = 1 + H*T + (1 + B)**2``
(``ActionLayout.hero_power_offset``); a power without a target (Armor Up!) is slot ``0``, and a hero without a
power (the plain hero of a neutral deck) has none of these ids masked. The mulligan range starts at ``M = P + T``
(``ActionLayout.mulligan_offset``). :mod:`ccg_env.env.codec` maps ids to engine ``Choice`` values and back
(``ActionLayout.describe(id)`` says what an id means).

## The mulligan

With ``rules.mulligan`` (the default) each game opens with the mulligan: after the opening hands are dealt,
``player_0`` and then ``player_1`` decides which opening cards to put back. While it decides its mask holds ``0``
("done, keep the rest") and ``M + h`` for each hand slot ``h`` not marked yet, and nothing else; each ``M + h``
marks one card, ``0`` ends the decision: the marked cards are replaced by cards drawn from the deck, then shuffled
into it (they cannot come back as their own replacement). ``player_1`` gets the coin after its mulligan, and turn 1
begins. The observation's ``in_mulligan`` and ``mulligan_marked`` pieces show the phase and the observer's own
marks (never the enemy's).

## Observation pieces

One flat float32 vector from the observing player's point of view, made of these pieces in this order
(``ObservationEncoder.pieces`` gives each one's slice; ``encoder.view(vec)`` reshapes a vector per piece and
``encoder.columns[name]`` names the features along each piece's last axis):

| piece             | shape       | features                                                                   |
|-------------------|-------------|----------------------------------------------------------------------------|
| own_hero          | (7,)        | health, armor, attack, weapon attack, weapon durability, frozen, can attack |
| enemy_hero        | (7,)        | the same for the enemy hero                                                |
| mana              | (3,)        | own mana, own max mana, enemy max mana                                     |
| zone_sizes        | (2, 5)      | own row, enemy row: deck, hand, graveyard, battlefield, secrets sizes      |
| fatigue           | (2,)        | own and enemy fatigue counters                                             |
| turn              | (2,)        | turn number, 1 if the observer moved first                                 |
| own_hand          | (H, 19 + C) | per slot: present, cost, attack, health, affordable, keywords (8), type    |
|                   |             | (minion, spell, weapon, secret), has target, target required, card (C)    |
| own_battlefield   | (B, 15 + C) | per slot: present, attack, health, max health, can attack, sleeping,       |
|                   |             | frozen, keywords (8), card (C)                                             |
| enemy_battlefield | (B, 15 + C) | the same for the enemy's minions                                           |
| own_secrets       | (C,)        | count of each own secret card                                              |
| own_hero_class    | (7,)        | one-hot class of the own hero: neutral, mage, warrior, paladin, priest,    |
|                   |             | rogue, warlock                                                             |
| enemy_hero_class  | (7,)        | the same for the enemy hero                                                |
| hero_powers       | (2, 4)      | own row, enemy row: has a hero power, its cost, used this turn, usable now |
|                   |             | (usable now: 0 for the side not on turn)                                   |
| in_mulligan       | (1,)        | 1 while the game is in the mulligan                                        |
| mulligan_marked   | (H,)        | per own hand slot: 1 if marked to be put back in the mulligan              |

Keywords are bits (taunt, charge, divine shield, windfury, lifesteal, poisonous, stealth, freeze); type and
card are one-hots, cards in the order of their ids sorted alphabetically. A weapon in hand shows its
durability as health. "Can attack" means now for the side on turn and on its next turn for the other side;
"sleeping" is summoning sickness. Hidden information stays hidden: the enemy hand is only a size and its
secrets only a count; no deck order is encoded. Values are raw game numbers clipped into the Box bounds
(stats cap at 100); multiply by ``encoder.scale`` for values in ``[0, 1]``.

## Masks

``observation["action_mask"]`` is an int8 vector with ones exactly at the ids of the engine's legal choices,
which come from the TargetSystem's candidates and the validators (``Game.apply`` accepts exactly those
choices), so every masked action is accepted and every other one is refused. The agent not on turn, and every
agent once the game is over, gets all zeros.

## Illegal actions

The env core's contract (:mod:`ccg_env.env.core`), in the raw and the wrapped env alike; a forfeit shows as both
agents terminated with ``infos[agent]["result"] == "illegal_action"``, and an ignored id leaves the offender to act
again. ``step()`` before ``reset()`` raises (``RuntimeError`` in the raw env, ``AssertionError`` from PettingZoo's
order enforcing in the wrapped one); ``None`` while the agent plays raises ``ValueError``. Once the game is over each
agent steps ``None`` once and leaves ``agents``; a step after that raises ``RuntimeError`` (call ``reset()``).

## Rewards

+1 to the winner and -1 to the loser when a hero dies; 0 to both for a draw (both heroes dead at once) or a
truncation at the turn limit or when the engine stops a looping card (``truncations`` rather than
``terminations`` are set then; which results truncate is decided once for every front-end,
``ccg_env.engine.state.TRUNCATING_RESULTS``). ``infos[agent]`` is ``{"result": None | "win" | "draw" |
"turn_limit" | "loop" | "illegal_action", "turn": int, "winner": None | "player_0" | "player_1", "phase":
"draft" | "battle"}`` (``"draft"`` only while a draft-mode game drafts, below).

``reward_shaping=True`` (in ``env()`` and ``raw_env()``) wraps the env in
:class:`~ccg_env.env.reward_shaping.HealthShaping`, which adds a zero-sum health-difference shaping to every step.

## Draft mode

With ``mode="draft"`` each episode's game starts with the engine's draft (``Game.new_draft``,
:mod:`ccg_env.engine.draft`): ``player_0`` and ``player_1`` take turns picking one of three offered cards
(``player_0`` first in each round) until both decks hold ``deck_size`` cards, then the engine deals the battle with
the drafted decks and the game's seed, and it goes on as above. The action space
gains the draft-pick range at its end (``draft_offset + k``, ``k`` = 0..2, ``draft_offset`` = 262 by default:
``Discrete(265)``); while drafting, the picking agent's mask holds exactly the offered picks and the other
agent's is all zeros. The observation is the duel's vector (zeros during the draft) followed by the draft pieces
of :mod:`ccg_env.env.draft_observation` (in draft, picked, left; hero class; the offer; the deck so far by card
and by cost); ``env.unwrapped.encoder.view(obs)`` names them. ``infos[agent]["phase"]`` is ``"draft"`` or
``"battle"``, ``env.unwrapped.draft`` the engine draft (``game.draft``). A masked-out id during the draft is handled as
``illegal_action`` says (a forfeit ends the game before any battle). ``options={"scenario": ...}`` or
``options={"decks": [a, b]}`` skips the draft.

## Rendering

``render_mode="ansi"``: ``render()`` returns both boards, the acting player's hand (the enemy hand as a
count), mana, health and armor, weapons, secrets (the enemy's as a count) and the last few root actions with
their reaction trees indented. ``"human"`` prints the same text after every step. A render mode turns the
engine's action log on.

## Configuration

| argument       | default          | meaning                                                                      |
|----------------|------------------|------------------------------------------------------------------------------|
| rules          | packaged default | a ``Rules`` object or a rules YAML path                                      |
| cards          | packaged cards   | a ``CardSet``, a card YAML path or a list of paths                           |
| decks          | midrange, aggro  | two decks (packaged names, YAML paths or ``Deck`` objects), or ``"random"``: |
|                |                  | each seat gets a packaged deck drawn with the game's seed                    |
| illegal_action | ``"forfeit"``    | ``"forfeit"``, ``"raise"`` or ``"ignore"``: see Illegal actions              |
| illegal_reward | -0.1             | reward of an ignored illegal action                                          |
| turn_limit     | the rules' value | turns (both players counted) before the game ends as a truncation            |
| seed           | None             | seed of the first ``reset()``; ``reset(seed=s)`` plays ``Game.new(seed=s)``  |
| render_mode    | None             | ``"ansi"`` or ``"human"``                                                    |
| reward_shaping | False            | ``env()`` and ``raw_env()`` only: wrap in ``HealthShaping`` (see Rewards)     |
| log            | False            | keep the engine's action log (``env.unwrapped.game.log``); slower            |
| mode           | ``"duel"``       | ``"draft"``: each game starts with a draft of both decks (30 rounds, pick one |
|                |                  | of three; ``decks`` is not used): see Draft mode below                       |
| heroes         | None             | draft mode: the seats' hero classes (``["mage", "rogue"]``); None: drawn     |
| card_features  | False            | card slots also carry what each card does, plus weapons, own secrets,        |
|                |                  | graveyards and own deck as card features (docs/observation.md)              |
| card_ids       | True             | ``False`` (with ``card_features``, duel mode) drops the card-id one-hots     |

``reset()`` without a seed draws the next game seed from a generator seeded by the last seed given, so a
sequence of resets is reproducible too. ``reset(options={"scenario": {...}})`` starts from a board described
as data (see :mod:`ccg_env.engine.scenario`), for tests and notebooks, and ``options={"decks": [a, b]}`` deals
one game that deck pair. ``env.unwrapped.game`` is the engine game (clone it, don't mutate it).
"""

from __future__ import annotations

import operator
import random
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import Game, Rules
from ..engine.draft import Draft
from ..engine.game_setup import resolve_cards, resolve_rules
from .core import EnvCore, Match
from .render import render_text
from .reward_shaping import SHAPING_SCALE, HealthShaping  # noqa: F401  (SHAPING_SCALE: its old home)
from .versions import check_version

__all__ = ["AGENTS", "CcgAECEnv", "env", "raw_env", "resolve_cards", "resolve_rules"]

AGENTS = ("player_0", "player_1")
_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}


def env(**config: Any) -> AECEnv:
    """Return the AEC env wrapped in PettingZoo's order enforcing (the raw env checks actions itself)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**config))


def raw_env(reward_shaping: bool = False, version: str | None = None, **config: Any) -> AECEnv:
    """Return the unwrapped AEC env (see the module documentation for ``config``); ``reward_shaping=True`` wraps
    it in :class:`~ccg_env.env.reward_shaping.HealthShaping`; ``version`` (default: the current one) must be one
    this ccg-env builds (:func:`~ccg_env.env.versions.check_version`)."""
    check_version(version)
    raw = CcgAECEnv(**config)
    return HealthShaping(raw) if reward_shaping else raw


def _as_seed(seed: Any) -> int:
    """Return a seed as a Python int (NumPy integers accepted), or raise a clear TypeError."""
    try:
        return operator.index(seed)
    except TypeError:
        raise TypeError(f"seed: expected an integer or None, got {seed!r}") from None


class CcgAECEnv(AECEnv, EzPickle):
    """The card game as a PettingZoo AEC env over the env core; see the module documentation."""

    metadata = {"name": "ccg_env_v1", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, rules: Rules | str | Path | None = None, cards: Any = None, decks: Any = None,
                 turn_limit: int | None = None, seed: int | None = None, render_mode: str | None = None,
                 log: bool = False, illegal_action: str = "forfeit", illegal_reward: float = -0.1,
                 mode: str = "duel", heroes: Any = None, card_features: bool = False, card_ids: bool = True) -> None:
        EzPickle.__init__(self, rules, cards, decks, turn_limit, seed, render_mode, log, illegal_action,
                          illegal_reward, mode, heroes, card_features, card_ids)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        self.core = EnvCore(rules, cards, decks, turn_limit, illegal_action, illegal_reward,
                            log=bool(log) or render_mode is not None, mode=mode, heroes=heroes,
                            card_features=card_features, card_ids=card_ids)
        self.rules, self.cards = self.core.rules, self.core.cards
        #: the encoder of the whole observation (in draft mode the battle's pieces, then the draft's)
        self.codec, self.encoder = self.core.codec, self.core.observation_encoder
        self._observation = self.encoder.new_buffer()
        self._write_observation = self.core.observation_writer(self._observation, exclusive=True)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.core.size) for a in AGENTS}
        self.observation_spaces = {a: self._observation_space() for a in AGENTS}
        self._next_seed = None if seed is None else _as_seed(seed)
        self._seed_source = random.Random(self._next_seed)
        #: the match of the current episode: its engine game
        self.match: Match | None = None
        self.game_seed: int | None = None

    @property
    def game(self) -> Game | None:
        """The engine game of the episode (None before ``reset()``)."""
        return self.match.game if self.match is not None else None

    @game.setter
    def game(self, game: Game) -> None:
        """Put another game (a clone of the position, say) in place of the episode's."""
        if self.match is None:
            raise RuntimeError("env.game set before reset(): call reset() to start a game")
        self.match.game, self.match.legal = game, None

    @property
    def draft(self) -> Draft | None:
        """Draft mode: the draft of the episode (the battle starts when it is over); else None."""
        return self.match.game.draft if self.match is not None else None

    def _observation_space(self) -> gymnasium.spaces.Dict:
        mask = gymnasium.spaces.Box(0, 1, (self.core.size,), dtype=np.int8)
        observation = gymnasium.spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        return gymnasium.spaces.Dict({"observation": observation, "action_mask": mask})

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self.action_spaces[agent]

    # --- episode -------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; ``seed`` (or the next seed of the env's sequence) seeds the game's generator.

        ``options={"scenario": {...}}`` starts from a board described as data instead (the format of
        :mod:`ccg_env.engine.scenario`) and ``options={"decks": [a, b]}`` deals this game that deck pair; other
        option keys are ignored.
        """
        if seed is None:
            seed = self._next_seed if self._next_seed is not None else self._seed_source.getrandbits(63)
        seed = _as_seed(seed)
        self._next_seed = None
        self._seed_source = random.Random(seed)
        self.game_seed = seed
        options = options or {}
        match = self.match = self.core.new_match(seed, decks=options.get("decks"), scenario=options.get("scenario"))
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {"result": None, "turn": 0, "winner": None, "phase": "battle"} for a in AGENTS}
        self._turn = -1
        self._note_turn(match)
        self.agent_selection = AGENTS[match.current]

    def _note_turn(self, match: Match) -> None:
        """Write the game's turn and phase into every agent's info when the turn changed (turn 0: the draft)."""
        game = match.game
        if game.state.turn != self._turn:
            self._turn = turn = game.state.turn
            phase = "draft" if game.in_draft else "battle"
            for info in self.infos.values():
                info["turn"], info["phase"] = turn, phase

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Return ``agent``'s observation vector and action mask (fresh arrays)."""
        match = self.match
        if match is None:
            raise RuntimeError("observe() before reset(): call reset() to start a game")
        seat = _SEATS[agent]
        legal = self.core.legal_ids(match) if match.current == seat else {}
        self._write_observation(match.game, seat, legal.values() if legal else None)
        return {"observation": self._observation.copy(), "action_mask": self.core.mask(legal)}

    def step(self, action: int | None) -> None:
        """Play one action id for ``agent_selection`` (None for an agent that is already done)."""
        match = self.match
        if match is None:
            raise RuntimeError("step() before reset(): call reset() to start a game")
        if not self.agents:
            raise RuntimeError("step() after the game is over and every agent is done: call reset() to start "
                               "a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: step() needs an action id, got None")
        step = self.core.step(match, self.core.action_id(action), agent)
        self._cumulative_rewards[agent] = 0.0
        self._note_turn(match)
        if step.result is None and not step.illegal:  # the common step: no reward for anyone
            if any(self.rewards.values()):  # paid last step (or by a wrapper): this step pays nothing
                self.rewards = {name: 0.0 for name in AGENTS}
            self.agent_selection = AGENTS[step.current]
            if self.render_mode == "human":
                self.render()
            return
        self.rewards = dict(zip(AGENTS, step.rewards))
        if step.result is None:
            self.agent_selection = AGENTS[step.current]
        else:
            winner = None if step.winner is None else AGENTS[step.winner]
            for info in self.infos.values():
                info.update(result=step.result, winner=winner)
            done = {name: True for name in AGENTS}
            if step.truncated:
                self.truncations = done
            else:
                self.terminations = done
            self.agent_selection = AGENTS[1 - _SEATS[agent]]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- rendering -----------------------------------------------------------------------------

    def render(self) -> str | None:
        """Return (``"ansi"``) or print (``"human"``) the board seen by the acting player."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        if self.game is None:
            text = "(no game yet: call reset() first)"
        else:
            text = render_text(self.game, AGENTS.index(self.agent_selection), names=AGENTS)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release (the engine holds no external resources)."""
