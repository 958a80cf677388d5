"""The TargetSystem: marks (alliance x zones x filters) and the one candidate function behind every target.

Legal-move generation, play validation, random picks, the re-check of a target when its effect resolves and
(in ``ccg_env.env``) the action mask all call :func:`candidates`; there is no second implementation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Final

from .vocabulary import CHARACTER_ZONES, ZONE_ATTRS, ZONE_ORDER, Alliance, CardType, Keyword, Zones

if TYPE_CHECKING:
    from .actions import PlayCard
    from .game import Game
    from .rng import Rng
    from .state import Card, GameState

_STEALTH: Final = int(Keyword.STEALTH)
_TAUNT: Final = int(Keyword.TAUNT)

#: Named filters a mark may carry; each is a test on a card instance.
PREDICATES: Final[dict[str, Callable[[Card], bool]]] = {
    "injured": lambda c: c.health < c.max_health,
    "undamaged": lambda c: c.health >= c.max_health,
    "taunt": lambda c: bool(c.keywords & _TAUNT),
    "frozen": lambda c: c.frozen_on_turn > 0,
    "attack_3_or_more": lambda c: c.attack >= 3,
    "attack_2_or_less": lambda c: c.attack <= 2,
}


@dataclass(frozen=True, slots=True)
class Mark:
    """Which cards qualify: an alliance, a set of zones, and optional type, exclusion and predicate filters."""

    alliance: Alliance
    zones: Zones
    card_types: frozenset[CardType] = frozenset()  # empty: any type
    exclude: frozenset[CardType] = frozenset()  # e.g. {HERO} for "non-hero"
    predicates: tuple[str, ...] = ()
    #: derived once: the zones to scan, in the canonical order, as (zone, Player attribute) pairs
    zone_attrs: tuple[tuple[Zones, str], ...] = field(init=False, repr=False, compare=False)
    #: derived once: whether the mark looks at the ally side, the enemy side
    sides: tuple[bool, bool] = field(init=False, repr=False, compare=False)
    filters: tuple[Callable[[Card], bool], ...] = field(init=False, repr=False, compare=False)
    #: derived once, for :func:`candidates`: per side looked at, (is the enemy side, ((Player attribute, is a
    #: character zone), ...)); and whether every card passes the filters (no type, exclusion or predicate)
    scan: tuple[tuple[int, tuple[tuple[str, bool], ...]], ...] = field(init=False, repr=False, compare=False)
    accepts_all: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        attrs = tuple((z, ZONE_ATTRS[z]) for z in ZONE_ORDER if self.zones & z)
        sides = (bool(self.alliance & Alliance.ALLY), bool(self.alliance & Alliance.ENEMY))
        object.__setattr__(self, "zone_attrs", attrs)
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "filters", tuple(PREDICATES[name] for name in self.predicates))
        zones = tuple((attr, zone in CHARACTER_ZONES) for zone, attr in attrs)
        object.__setattr__(self, "scan", tuple((enemy, zones) for enemy, wanted in enumerate(sides) if wanted))
        object.__setattr__(self, "accepts_all", not (self.card_types or self.exclude or self.filters))

    def accepts(self, card: Card) -> bool:
        """Return whether the card passes the type, exclusion and predicate filters (zone aside)."""
        card_type = card.definition.card_type
        if self.card_types and card_type not in self.card_types:
            return False
        if card_type in self.exclude:
            return False
        for test in self.filters:
            if not test(card):
                return False
        return True

    def describe_short(self) -> str:
        return f"{self.alliance.name}:{self.zones.name}"


@dataclass(frozen=True, slots=True)
class Target:
    """A card's target spec: whether a target must be chosen, which are allowed, which an AI prefers."""

    required: bool
    allowed: Mark
    preferred: Mark


def candidates(state: GameState, owner: int, mark: Mark, *, targeted: bool = False,
               living: bool = True) -> list[Card]:
    """List the cards matching ``mark`` from ``owner``'s point of view, in the seed's order.

    Ally player first, then enemy; within a player zones in Hero, Weapon, Deck, Hand, Battlefield, Secrets,
    Graveyard order, cards in zone order. ``targeted`` leaves out what cannot be targeted by ``owner``
    (enemy stealth); ``living`` leaves out characters at 0 or less health waiting for the reaper.
    """
    out: list[Card] = []
    players = state.players
    accepts = None if mark.accepts_all else mark.accepts
    for enemy, zones in mark.scan:
        player = players[owner ^ enemy]  # the enemy of seat 0 is seat 1 and the other way round
        hide_stealth = targeted and enemy
        for attr, character_zone in zones:
            skip_dying = living and character_zone
            for card in getattr(player, attr):
                if skip_dying and card.health <= 0:
                    continue
                if hide_stealth and card.keywords & _STEALTH:
                    continue
                if accepts is None or accepts(card):
                    out.append(card)
    return out


def play_targets(state: GameState, card: Card) -> list[Card]:
    """Return the allowed targets for playing ``card`` (empty if it has no target spec)."""
    spec = card.definition.target
    if spec is None:
        return []
    return candidates(state, card.owner, spec.allowed, targeted=True)


def play_target_options(state: GameState, card: Card) -> list[Card | None]:
    """Return every legal value of the declared target when playing ``card``.

    No spec: only None. Required: each allowed candidate (none means the card is not playable). Optional:
    None first, then each allowed candidate.
    """
    spec = card.definition.target
    if spec is None:
        return [None]
    return target_options(spec, play_targets(state, card))


def target_options(spec: Target, found: list[Card]) -> list[Card | None]:
    """The legal declared targets of a card with target spec ``spec`` whose allowed candidates are ``found``."""
    return list(found) if spec.required else [None, *found]


def validate_play_target(game: Game, action: PlayCard) -> str | None:
    """Validator of PlayCard: the declared target must be one of the card's legal target options."""
    return declared_target_problem(game.state, action.card, action.target)


def declared_target_problem(state: GameState, card: Card, target: Card | None) -> str | None:
    """Why ``target`` is not a legal declared target of playing (or using) ``card``, or None if it is."""
    if target in play_target_options(state, card):
        return None
    spec = card.definition.target
    if spec is None:
        return f"{card.definition.id} takes no target"
    if target is None:
        return f"{card.definition.id} requires a target"
    return f"{target!r} is not an allowed target of {card.definition.id}"


def attack_targets(state: GameState, attacker: Card) -> list[Card]:
    """Return the characters ``attacker`` may attack: enemy hero and minions, not stealthed, taunt first."""
    found = candidates(state, attacker.owner, ATTACKABLE, targeted=True)
    taunts = [c for c in found if c.keywords & _TAUNT]
    return taunts or found


def auto_target(game: Game, card: Card, preferred: bool = True, rng: Rng | None = None) -> Card | None:
    """Propose a target for a computer player from the ``preferred`` (or ``allowed``) mark; only proposes.

    The proposal is never written anywhere: a play still declares its own target. With ``rng`` the pick is
    random among the candidates (drawn from that generator, not the game's), else the first candidate.
    """
    spec = card.definition.target
    if spec is None:
        return None
    mark = spec.preferred if preferred else spec.allowed
    options = [c for c in candidates(game.state, card.owner, mark, targeted=True)
               if c in play_targets(game.state, card)]
    if not options:
        return None
    return rng.choice(options) if rng is not None else options[0]


def still_targetable(state: GameState, owner: int, mark: Mark, card: Card) -> bool:
    """Re-check a declared target when its effect resolves: still matching, in its zone, not dying."""
    return card in candidates(state, owner, mark, targeted=True)


ATTACKABLE: Final = Mark(Alliance.ENEMY, Zones.ACTIVE)
