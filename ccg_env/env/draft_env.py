"""
# ccg_env/Draft-v1: draft a deck, then battle with it (single-agent Gymnasium env)

The learner drafts a deck against an opponent who drafts too (30 rounds: pick one of three offered cards, see
:mod:`ccg_env.engine.draft`), then the two drafted decks battle as in ``ccg_env/Duel-v1``. One action space serves
both phases: the duel's layout plus the draft-pick range at its end.

| Creation          | ``gym.make("ccg_env/Draft-v1", opponent="heuristic", opponent_draft="heuristic", ...)``   |
|-------------------|--------------------------------------------------------------------------------------------|
| Action space      | ``Discrete(N + 3)``: the duel's ``N`` ids (265 in all with default rules), then the picks   |
|                   | ``draft_offset + k`` (``k`` = 0, 1, 2: take offered card ``k``; ``draft_offset`` = ``N``)  |
| Observation space | ``Box(float32, (size,))``: the duel's observation, then the draft pieces (below)           |
| Action mask       | ``env.action_masks()`` and ``info["action_mask"]``: the offered picks while drafting, the  |
|                   | battle's legal ids in the battle                                                           |

## Episode

``reset()`` starts a game with its draft (``Game.new_draft``): each seat's hero class is drawn from the game's
seed (or fixed by ``heroes``), and the opponent's draft picks are made by ``opponent_draft``. Every learner step in
the draft is one pick (seat 0 picks first in each round, the other seat's pick is made inside ``step``); after the
30th pick of both seats the engine deals the battle at once (its first observation is that step's), with the drafted
decks, seeded by the game's seed, the learner in the same seat, and it goes on as in Duel-v1: this env is Duel-v1's
duel over a draft-mode env core. Rewards and outcomes are the duel's (0 during the draft; +1 / -1 / 0 at the end);
``info["phase"]`` is ``"draft"`` or ``"battle"``.

## Observation (draft pieces after the duel's pieces)

The duel's observation (all zeros during the draft), then ``draft`` (in draft, picked, left), ``draft_hero``
(one-hot class), ``draft_offer`` (3 rows: present, cost, attack, health, type, keywords, card one-hot),
``draft_deck`` (copies per card so far) and ``draft_curve`` (cards per cost 0..6, 7+); see
:mod:`ccg_env.env.draft_observation`. ``env.unwrapped.encoder.view(obs)`` splits a vector into named pieces.

## Illegal actions

The env core's contract (:mod:`ccg_env.env.core`): a battle id during the draft and a pick id in the battle are
masked out like any other.

## Configuration

The options of ``ccg_env/Duel-v1`` (``opponent``, ``seat``, ``illegal_action``, ``illegal_reward``,
``normalize_observations``, ``rules``, ``cards``, ``turn_limit``, ``render_mode``, ``card_features``) except ``decks``
(and ``card_ids``: the draft pieces are card-id one-hots), with
``opponent="heuristic"`` by default (it drafts and battles as the heuristic), and:

| argument       | default       | meaning                                                                           |
|----------------|---------------|-----------------------------------------------------------------------------------|
| opponent_draft | ``"heuristic"`` | the opponent's draft strategy: ``"random"``, a registered agent name (its ``draft_pick``, or ``act`` on the draft observation) or an agent object |
| heroes         | None          | the two seats' hero classes (``["mage", "warrior"]``); None draws them per draft |

The opponent's battle decisions are made by ``opponent``; an agent asked through ``act`` gets the draft-mode
observation (its drafted deck in the draft pieces). Seeding: ``reset(seed=s)`` seeds the env's generator, from
which the game's seed (the draft's and the battle's) and the seat (if random) are drawn: same seed and actions,
same episode.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine import Rules
from ..engine.draft import Draft
from .duel import Duel, make_opponent
from .gym_env import CcgDuelEnv
from .registration import DRAFT_ENV_ID
from .render import render_draft

__all__ = ["DRAFT_ENV_ID", "CcgDraftEnv", "render_draft"]


class CcgDraftEnv(CcgDuelEnv):
    """Draft then battle against a built-in opponent; see the module documentation."""

    def __init__(self, opponent: Any = "heuristic", opponent_draft: Any = "heuristic", seat: str | int = "random",
                 illegal_action: str = "forfeit", illegal_reward: float = -0.1, normalize_observations: bool = False,
                 rules: Rules | str | Path | None = None, cards: Any = None, heroes: Any = None,
                 turn_limit: int | None = None, render_mode: str | None = None, card_features: bool = False) -> None:
        self._bind(render_mode, seat=seat, illegal_action=illegal_action, illegal_reward=illegal_reward,
                   normalize_observations=normalize_observations, rules=rules, cards=cards, turn_limit=turn_limit,
                   mode="draft", heroes=heroes, card_features=card_features)
        self.encoder = self.setup.encoder
        self.duel = Duel(self.setup, make_opponent(opponent, self.setup, opponent_draft),
                                      self._observation, self._mask)

    @property
    def draft(self) -> Draft | None:
        """The engine draft of the current episode (clone it, don't mutate it)."""
        game = self.duel.game
        return game.draft if game is not None else None

    def _info(self) -> dict[str, Any]:
        game = self.duel.game
        return {**super()._info(), "phase": "draft" if game is not None and game.in_draft else "battle"}


def register() -> None:
    """Register ``ccg_env/Draft-v1`` (idempotent)."""
    from .registration import register_draft_env

    register_draft_env()


register()
