"""
# ccg_env/Draft-v0: draft a deck, then battle with it (single-agent Gymnasium env)

The learner drafts a deck against an opponent who drafts too (30 rounds: pick one of three offered cards, see
:mod:`ccg_env.engine.draft`), then the two drafted decks battle as in ``ccg_env/Duel-v0``. One action space serves
both phases: the duel's layout plus the draft-pick range at its end.

| Creation          | ``gym.make("ccg_env/Draft-v0", opponent="heuristic", opponent_draft="heuristic", ...)``   |
|-------------------|--------------------------------------------------------------------------------------------|
| Action space      | ``Discrete(N + 3)``: the duel's ``N`` ids (265 in all with default rules), then the picks   |
|                   | ``draft_offset + k`` (``k`` = 0, 1, 2: take offered card ``k``; ``draft_offset`` = ``N``)  |
| Observation space | ``Box(float32, (size,))``: the duel's observation, then the draft pieces (below)           |
| Action mask       | ``env.action_masks()`` and ``info["action_mask"]``: the offered picks while drafting, the  |
|                   | battle's legal ids in the battle                                                           |

## Episode

``reset()`` starts a draft: each seat's hero class is drawn from the draft's seed (or fixed by ``heroes``), and
the opponent's draft picks are made by ``opponent_draft``. Every learner step in the draft is one pick (seat 0
picks first in each round, the other seat's pick is made inside ``step``); after the 30th pick of both seats the
battle starts at once (its first observation is that step's), with the drafted decks and the learner in the same
seat, and goes on as in Duel-v0. Rewards and outcomes are the duel's (0 during the draft; +1 / -1 / 0 at the end);
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

The options of ``ccg_env/Duel-v0`` (``opponent``, ``seat``, ``illegal_action``, ``illegal_reward``,
``normalize_observations``, ``rules``, ``cards``, ``turn_limit``, ``render_mode``) except ``decks``, with
``opponent="heuristic"`` by default (it drafts and battles as the heuristic), and:

| argument       | default       | meaning                                                                           |
|----------------|---------------|-----------------------------------------------------------------------------------|
| opponent_draft | ``"heuristic"`` | the opponent's draft strategy: ``"random"``, a registered agent name (its ``draft_pick``, or ``act`` on the draft observation) or an agent object |
| heroes         | None          | the two seats' hero classes (``["mage", "warrior"]``); None draws them per draft |

The opponent's battle decisions are made by ``opponent``; an agent asked through ``act`` gets the draft-mode
observation (its drafted deck in the draft pieces). Seeding: ``reset(seed=s)`` seeds the env's generator, from
which the draft's seed, the seat (if random) and the battle's seed are drawn: same seed and actions, same episode.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import numpy as np

from ..engine import Game, Rules
from ..engine.draft import Draft
from .core import Match, Step
from .draft_play import Drafter, make_drafter
from .duel import Duel, DuelSetup, Opponent, make_opponent
from .gym_env import CcgDuelEnv
from .registration import DRAFT_ENV_ID

_MAX_SEED: Final = 2**63 - 1


class DraftDuel:
    """The learner's draft against an opponent's, then the duel with the drafted decks, over bound arrays.

    Args:
        setup: a duel setup whose core is in draft mode.
        opponent: plays the other seat's battle decisions.
        drafter: makes the other seat's draft picks.
        observation: float32 array of the draft-mode observation's shape; the duel writes its first part.
        mask: int8 array of shape ``(action count,)``.
    """

    def __init__(self, setup: DuelSetup, opponent: Opponent, drafter: Drafter, observation: np.ndarray,
                 mask: np.ndarray) -> None:
        encoder = setup.core.draft_encoder
        if encoder is None:
            raise ValueError("DraftDuel needs an env core in draft mode (mode='draft')")
        self.setup, self.core, self.encoder = setup, setup.core, encoder
        self.opponent, self.drafter = opponent, drafter
        self.observation = observation
        self.duel = Duel(setup, opponent, observation[:encoder.battle_size], mask)
        self._write_mask = self.core.mask_writer(mask)
        self.match: Match | None = None  # the draft's (the battle is the duel's)
        self.seat = 0
        self.draft_seed = 0
        self._rng: np.random.Generator | None = None
        self._draft_outcome: str | None = None
        self._draft_length = 0
        self._draft_return = 0.0

    @property
    def draft(self) -> Draft | None:
        return self.match.draft if self.match is not None else None

    @property
    def phase(self) -> str:
        """``"draft"`` until the decks are complete, then ``"battle"``."""
        draft = self.draft
        return "draft" if draft is None or not draft.is_over else "battle"

    @property
    def game(self) -> Game | None:
        """The battle's engine game (None during the draft)."""
        return self.duel.game if self.phase == "battle" else None

    @property
    def outcome(self) -> str | None:
        return self._draft_outcome if self.phase == "draft" else self.duel.outcome

    @property
    def episode_return(self) -> float:
        return self._draft_return + (self.duel.episode_return if self.phase == "battle" else 0.0)

    @property
    def length(self) -> int:
        return self._draft_length + (self.duel.length if self.phase == "battle" else 0)

    def reset(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> None:
        """Start a draft (its seed and, if random, the learner's seat from ``rng``); the opponent picks first
        if it is in seat 0. ``options={"seat": 0 | 1}`` fixes the seat of this episode."""
        options = options or {}
        seed = int(rng.integers(_MAX_SEED))
        seat = self.setup.seat if self.setup.seat is not None else int(rng.integers(2))
        seat = int(options.get("seat", seat))
        if seat not in (0, 1):
            raise ValueError(f"reset options: seat must be 0 or 1, got {options.get('seat')!r}")
        self._rng, self.seat, self.draft_seed = rng, seat, seed
        self.match = self.core.new_match(seed, battle_seed=None)  # the duel deals the battle (its seed from rng)
        self.drafter.reset(seed)
        self._draft_outcome, self._draft_length, self._draft_return = None, 0, 0.0
        self.duel.game, self.duel.outcome = None, None
        self.duel.clear_observation()
        self._settle_draft(self._opponent_picks(self.match))

    def step(self, action: int) -> tuple[float, bool, bool]:
        """Play the learner's action id: a pick during the draft (then the opponent's pick), else a battle action
        (a masked-out id: see :mod:`ccg_env.env.core`)."""
        match = self.match
        if match is None or self.outcome is not None:
            raise RuntimeError("DraftDuel.step: the episode is over (or never started); call reset() first")
        if self.phase == "battle":
            return self.duel.step(action)
        step = self.core.step(match, action, "learner")
        self._draft_length += 1
        if not step.illegal:
            step = self._opponent_picks(match)
        if match.draft is not None and match.draft.is_over:
            return self._start_battle(match.draft)
        return self._settle_draft(step)

    def _opponent_picks(self, match: Match) -> Step:
        """The other seat's picks until the learner picks or the draft is over; the position's step."""
        return self.core.play_until(match, self.seat, pick=self.drafter.pick)

    def _settle_draft(self, step: Step) -> tuple[float, bool, bool]:
        """Translate a draft step for the learner: its draft pieces and pick mask, reward and end flags."""
        match = self.match
        assert match is not None and match.draft is not None
        reward = step.rewards[self.seat]
        self._draft_return += reward
        if step.result is not None:
            self._draft_outcome = step.outcome(self.seat)
        self.encoder.write_draft(match.draft, self.seat, self.observation,
                                 normalize=self.setup.normalize_observations)
        self._write_mask.write(self.core.legal_ids(match) if step.current == self.seat else ())
        return reward, step.terminated, step.truncated

    def _start_battle(self, draft: Draft) -> tuple[float, bool, bool]:
        """Deal the drafted decks and start the duel, the learner in its draft seat (the opponent may move)."""
        self.encoder.write_draft(draft, self.seat, self.observation, normalize=self.setup.normalize_observations)
        show = getattr(self.opponent, "show_draft", None)
        if show is not None:
            show(draft, 1 - self.seat)
        assert self._rng is not None
        self.duel.reset(self._rng, {"seat": self.seat, "decks": list(draft.decks())})
        game = self.duel.game
        if self.duel.outcome is not None and game is not None:  # over before the learner's first battle move
            step = self.core.position(self.duel.match)  # type: ignore[arg-type]
            return self.duel.episode_return, step.terminated, step.truncated
        return 0.0, False, False

    def render_names(self) -> tuple[str, str]:
        return self.duel.render_names()


class CcgDraftEnv(CcgDuelEnv):
    """Draft then battle against a built-in opponent; see the module documentation."""

    def __init__(self, opponent: Any = "heuristic", opponent_draft: Any = "heuristic", seat: str | int = "random",
                 illegal_action: str = "forfeit", illegal_reward: float = -0.1, normalize_observations: bool = False,
                 rules: Rules | str | Path | None = None, cards: Any = None, heroes: Any = None,
                 turn_limit: int | None = None, render_mode: str | None = None) -> None:
        self._bind(render_mode, seat=seat, illegal_action=illegal_action, illegal_reward=illegal_reward,
                   normalize_observations=normalize_observations, rules=rules, cards=cards, turn_limit=turn_limit,
                   mode="draft", heroes=heroes)
        self.encoder = self.setup.core.draft_encoder
        self.duel = self.match = DraftDuel(self.setup, make_opponent(opponent, self.setup),
                                           make_drafter(opponent_draft, self.setup.core), self._observation,
                                           self._mask)

    @property
    def draft(self) -> Draft | None:
        """The engine draft of the current episode (clone it, don't mutate it)."""
        return self.match.draft

    def _info(self) -> dict[str, Any]:
        return {**super()._info(), "phase": self.match.phase}

    def render(self) -> str | None:
        """The learner's draft (hero, offer, deck so far) or, in the battle, its view of the board (``"ansi"``)."""
        match = self.match
        if self.render_mode is not None and match.draft is not None and match.game is None:
            return render_draft(match.draft, match.seat)
        return super().render()


def render_draft(draft: Draft, seat: int) -> str:
    """A seat's draft as text: hero, round, the offered cards with their ids in the offer, the deck by cost."""
    side = draft.sides[seat]
    lines = [f"draft round {draft.round + 1}/{draft.rules.deck_size}, seat {seat} ({side.hero.value}), "
             f"{len(side.picks)} cards picked"]
    for k, card in enumerate(draft.offer(seat)):
        stats = f" {card.attack}/{card.health}" if card.card_type.value == "minion" else ""
        lines.append(f"  [{k}] {card.name} ({card.cost} mana {card.card_type.value}{stats}, "
                     f"{card.card_class.value})")
    by_cost: dict[int, list[str]] = {}
    for card in draft.picks(seat):
        by_cost.setdefault(card.cost, []).append(card.name)
    for cost in sorted(by_cost):
        lines.append(f"  deck {cost}: {', '.join(sorted(by_cost[cost]))}")
    return "\n".join(lines)


def register() -> None:
    """Register ``ccg_env/Draft-v0`` (idempotent)."""
    from .registration import register_draft_env

    register_draft_env()


register()
