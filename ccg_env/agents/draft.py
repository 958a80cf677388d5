"""Draft picks and built decks by card value and mana curve: the heuristic drafter and ``ccg-env deck build``.

The heuristic picks, among the offered cards, the one with the highest *draft score*:

    score = card value + CURVE_WEIGHT x curve need - OVER_PENALTY x cards beyond the bucket's final target
            (+ STYLE_BONUS for a card of the strategy's style)

where the card value is :func:`ccg_env.agents.card_value.card_value` (power minus the fair power of its cost), the curve
need (:func:`ccg_env.agents.card_value.curve_need`) says how far the deck so far lags behind the strategy's curve for that
card's cost, and a card that would take its cost bucket past the curve's whole-deck target pays OVER_PENALTY per
card too many; ties go to the first offered card. The deck builder (:func:`build_deck`) drafts the same
way with every eligible card offered at once (neutral and the hero's class, below the copy limit), so it writes
a legal deck for every class and strategy; its first CLASS_CARDS picks are offered only the hero's class cards,
so a class deck holds at least that many of them (as many as the class has, if fewer), as the packaged class
decks do. The card value alone would leave them out: a class's cards are mostly fair-valued cards among over a
hundred neutral ones. ``seed`` adds a small jitter to the scores for variety.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Sequence

import yaml

from ccg_env.engine.decks import Deck
from ccg_env.engine.draft import DraftView, draft_pool
from ccg_env.engine.vocabulary import CardClass

from .card_value import CURVES, bucket, card_value, curve_need, is_aggressive, is_defensive

if TYPE_CHECKING:
    from ccg_env.engine import CardDef, CardSet, Rules

#: Weight of one missing card of a cost bucket against one point of card value.
CURVE_WEIGHT: Final = 1.5
#: Penalty per card a pick would put beyond its cost bucket's whole-deck target.
OVER_PENALTY: Final = 4.0
#: Bonus of a card that suits the strategy (aggressive for aggro, defensive for control).
STYLE_BONUS: Final = 1.5
#: Jitter of the builder's scores with a seed (uniform in +-JITTER).
JITTER: Final = 1.0
STRATEGIES: Final = tuple(CURVES)
#: Class cards a built deck of a class holds at least (the packaged class decks hold 8 to 10).
CLASS_CARDS: Final = 8


def draft_score(card: CardDef, picked_costs: Sequence[int], deck_size: int, strategy: str = "curve",
                cards: CardSet | None = None) -> float:
    """The score of adding ``card`` to a deck whose cards so far cost ``picked_costs`` (module documentation)."""
    curve = CURVES[strategy]
    score = card_value(card, cards) + CURVE_WEIGHT * curve_need(curve, picked_costs, card.cost, deck_size,
                                                                len(picked_costs))
    final_target = curve[bucket(card.cost)] * deck_size / sum(curve)
    have = sum(1 for cost in picked_costs if bucket(cost) == bucket(card.cost))
    score -= OVER_PENALTY * max(0.0, have + 1 - final_target)
    if (strategy == "aggro" and is_aggressive(card)) or (strategy == "control" and is_defensive(card)):
        score += STYLE_BONUS
    return score


def heuristic_pick(view: DraftView, strategy: str = "curve") -> int:
    """The offer index with the best draft score for the deck in ``view`` (the first of equal scores)."""
    costs = [card.cost for card in view.picks]
    scores = [draft_score(card, costs, view.rules.deck_size, strategy, view.cards) for card in view.offer]
    return max(range(len(scores)), key=lambda k: (scores[k], -k))


class HeuristicDrafter:
    """A draft agent that picks by :func:`heuristic_pick` (its ``act`` plays the draft-pick id of that pick)."""

    def __init__(self, strategy: str = "curve", name: str = "heuristic-draft") -> None:
        if strategy not in CURVES:
            raise ValueError(f"strategy: expected one of {', '.join(CURVES)}, got {strategy!r}")
        self.strategy, self.name = strategy, name

    def draft_pick(self, view: DraftView) -> int:
        return heuristic_pick(view, self.strategy)

    def act(self, observation: object, action_mask: object, view: DraftView | None = None) -> int:
        if view is None or not hasattr(view, "offer"):
            raise ValueError(f"{type(self).__name__} drafts only: it needs a DraftView, got {view!r}")
        return view.action_id(self.draft_pick(view))

    def reset(self, seed: int | None = None) -> None:
        """Deterministic: nothing to reset."""


def build_deck(cards: CardSet, rules: Rules, hero: CardClass, strategy: str = "curve", seed: int | None = None,
               name: str | None = None) -> Deck:
    """A legal deck for ``hero`` built greedily by draft score, its class cards first (module documentation).

    Raises:
        ValueError: an unknown strategy, or too few eligible cards for a legal deck.
    """
    if strategy not in CURVES:
        raise ValueError(f"strategy: expected one of {', '.join(CURVES)}, got {strategy!r}")
    pool = [cards[card_id] for card_id in draft_pool(cards, hero)]
    if len(pool) * rules.max_copies < rules.deck_size:
        raise ValueError(f"a {hero.value} deck can use {len(pool)} cards with at most {rules.max_copies} copies "
                         f"each: fewer than the {rules.deck_size} a deck needs")
    class_pool = [card for card in pool if card.card_class is hero and hero is not CardClass.NEUTRAL]
    class_picks = min(CLASS_CARDS, len(class_pool) * rules.max_copies, rules.deck_size)
    jitter = random.Random(seed) if seed is not None else None
    noise = {card.id: jitter.uniform(-JITTER, JITTER) if jitter else 0.0 for card in pool}
    picks: list[CardDef] = []
    counts: dict[str, int] = {}
    while len(picks) < rules.deck_size:
        costs = [card.cost for card in picks]
        offered = class_pool if len(picks) < class_picks else pool
        open_cards = [card for card in offered if counts.get(card.id, 0) < rules.max_copies]
        best = max(open_cards, key=lambda c: draft_score(c, costs, rules.deck_size, strategy, cards) + noise[c.id])
        picks.append(best)
        counts[best.id] = counts.get(best.id, 0) + 1
    deck_name = name or f"{hero.value}_{strategy}"
    ordered = sorted(picks, key=lambda card: (card.cost, card.id))
    return Deck(deck_name, tuple(card.id for card in ordered), f"built by ccg-env deck build ({strategy})", hero)


def deck_yaml(deck: Deck) -> str:
    """A deck as the YAML of a deck file (name, description, hero, card counts in deck order)."""
    counts: dict[str, int] = {}
    for card_id in deck.cards:
        counts[card_id] = counts.get(card_id, 0) + 1
    data = {"name": deck.name, "description": deck.description, "hero": deck.hero.value, "cards": counts}
    return yaml.safe_dump(data, sort_keys=False)


class DraftingAgent:
    """One arena competitor in draft mode: ``drafter`` makes the draft picks, ``battler`` plays the battle.

    Draft decisions go to the drafter's ``draft_pick(view)`` when it has one (no observation is built), else to
    its ``act`` with the draft observation; battle decisions go to the battler (its ``choose_from_view`` too).
    """

    def __init__(self, battler: Any, drafter: Any, name: str | None = None) -> None:
        self.battler, self.drafter = battler, drafter
        self.name = name or str(getattr(battler, "name", type(battler).__name__))
        if hasattr(drafter, "draft_pick"):
            self.draft_pick = drafter.draft_pick
        if hasattr(battler, "choose_from_view"):
            self.choose_from_view = battler.choose_from_view

    def act(self, observation: Any, action_mask: Any, view: Any = None) -> int:
        if isinstance(view, DraftView):
            return int(self.drafter.act(observation, action_mask, view))
        return int(self.battler.act(observation, action_mask, view))

    def reset(self, seed: int | None = None) -> None:
        for agent in (self.battler, self.drafter) if self.drafter is not self.battler else (self.battler,):
            reset = getattr(agent, "reset", None)
            if reset is not None:
                reset(seed)


def drafts_itself(agent: Any) -> bool:
    """Whether an agent makes its own draft picks: a ``draft_pick`` method, or ``can_draft = True`` (an agent
    whose ``act`` reads the draft observation and mask, such as the random and learned agents)."""
    return hasattr(agent, "draft_pick") or bool(getattr(agent, "can_draft", False))
