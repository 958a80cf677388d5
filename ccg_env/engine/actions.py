"""Game actions: one small class per kind of state change, each performed through the action system.

Every action class is a dataclass that writes out its own ``__init__`` (``@dataclass`` keeps a class's own, or
inherits the parent's with ``init=False``): compiled, the engine then builds its many actions per decision natively
rather than through the interpreted ``__init__`` that ``@dataclass`` generates. ``tests/engine/test_actions.py``
checks that each one takes exactly its fields, in the order and with the defaults ``@dataclass`` would give them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .definitions import HERO, Ability
from .state import Card, Result
from .vocabulary import Zones


#: The card a probe action (one that legal-move generation puts to the validators, never performs) points at
#: until it is pointed at a real one. It is never part of a game.
PROBE_CARD: Final = Card(-1, HERO, 0, Zones.NONE, 0, 0, 0, 0, 0)


@mypyc_attr(allow_interpreted_subclasses=True)  # new kinds of action may be defined in plain Python
@dataclass(slots=True, eq=False)
class GameAction:
    """Base of every action. ``player`` is the party responsible for it (not always the one on turn).

    ``priority`` (higher first) and ``order_of_play`` (lower first) sort sibling reactions.
    """

    player: int
    priority: int = field(default=0, kw_only=True)
    order_of_play: int = field(default=0, kw_only=True)
    cancelled: bool = field(default=False, kw_only=True)

    def __init__(self, player: int, *, priority: int = 0, order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled

    def cancel(self) -> None:
        """Cancel the action: phases not yet run are skipped. There is no way to un-cancel."""
        self.cancelled = True

    @property
    def kind(self) -> str:
        return type(self).__name__

    def describe(self) -> dict[str, Any]:
        """Return the action's main fields with cards shown by uid, for logs and JSON (sorting and placement
        bookkeeping left out)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in _UNDESCRIBED:
                continue
            out[f.name] = _plain(getattr(self, f.name))
        return out


#: Fields :meth:`GameAction.describe` leaves out: how reactions sort, and where a deathrattle's summons go.
_UNDESCRIBED: Final = frozenset({"priority", "order_of_play", "cancelled", "left_of", "right_neighbours"})


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return value.uid
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Hit):
        return {"source": _plain(value.source), "target": value.target.uid, "amount": value.amount}
    if hasattr(value, "describe_short"):
        return value.describe_short()
    if isinstance(value, Result):
        return value.value
    return value


# --- turns -------------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class ChangeTurn(GameAction):
    """End the current player's turn and give the turn to ``next_player``."""

    next_player: int = 0

    def __init__(self, player: int, next_player: int = 0, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.next_player = next_player


@dataclass(slots=True, eq=False, init=False)  # the parent's compiled __init__
class TurnEnd(GameAction):
    """Event: ``player``'s turn is ending."""


@dataclass(slots=True, eq=False, init=False)  # the parent's compiled __init__
class TurnStart(GameAction):
    """Event: ``player``'s turn starts (mana, draw and start-of-turn triggers react)."""


# --- cards and drawing -------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class DrawCards(GameAction):
    """Draw ``amount`` cards: partial draws fatigue per missing card and burn what the hand cannot hold."""

    amount: int = 1
    drawn: list[Card] = field(default_factory=list, kw_only=True)

    def __init__(self, player: int, amount: int = 1, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False, drawn: list[Card] | None = None) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.amount = amount
        self.drawn = [] if drawn is None else drawn


@dataclass(slots=True, eq=False, init=False)  # the parent's compiled __init__
class Overdraw(DrawCards):
    """Move ``amount`` cards from the deck straight to the graveyard (the hand was full)."""


@dataclass(slots=True, eq=False, init=False)  # the parent's compiled __init__
class Fatigue(GameAction):
    """Raise the player's fatigue by one; the hero then takes that much damage."""


@dataclass(slots=True, eq=False)
class PlayCard(GameAction):
    """Pay a card's cost and take it out of the hand. ``target`` is declared here and never changed."""

    card: Card
    target: Card | None = None

    def __init__(self, player: int, card: Card, target: Card | None = None, *, priority: int = 0,
                 order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card, self.target = card, target


@dataclass(slots=True, eq=False)
class UseHeroPower(GameAction):
    """Pay a hero power's cost and use it: its abilities fire like a spell's, at the ``target`` declared here.

    It is not a played card: "whenever you play a card" and "whenever you cast a spell" do not react to it.
    """

    card: Card
    target: Card | None = None

    def __init__(self, player: int, card: Card, target: Card | None = None, *, priority: int = 0,
                 order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card, self.target = card, target


@dataclass(slots=True, eq=False)
class CastSpell(GameAction):
    """A played spell resolves: 'whenever you cast' reacts to its prepare phase, its effects to perform."""

    card: Card
    target: Card | None = None

    def __init__(self, player: int, card: Card, target: Card | None = None, *, priority: int = 0,
                 order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card, self.target = card, target


@dataclass(slots=True, eq=False)
class PlaceSecret(GameAction):
    """Put a played secret into its owner's secrets zone, hidden from the opponent."""

    card: Card

    def __init__(self, player: int, card: Card, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card = card


@dataclass(slots=True, eq=False)
class EquipWeapon(GameAction):
    """Equip a weapon card for the player's hero, destroying the one it replaces."""

    card: Card
    target: Card | None = None

    def __init__(self, player: int, card: Card, target: Card | None = None, *, priority: int = 0,
                 order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card, self.target = card, target


@dataclass(slots=True, eq=False)
class Summon(GameAction):
    """Put a minion onto the player's battlefield (from hand when ``played``, else a token).

    Where it goes: beside ``beside`` (to its right, or its left when ``left``) if that minion is on the same
    battlefield when the summon resolves, else at the right end.
    """

    card: Card
    played: bool = False
    target: Card | None = None
    beside: Card | None = field(default=None, kw_only=True)
    left: bool = field(default=False, kw_only=True)

    def __init__(self, player: int, card: Card, played: bool = False, target: Card | None = None, *, priority: int = 0,
                 order_of_play: int = 0, cancelled: bool = False, beside: Card | None = None,
                 left: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card, self.played, self.target = card, played, target
        self.beside, self.left = beside, left


# --- combat and effects ------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Attack(GameAction):
    """A character attacks an enemy character; both deal their attack to the other simultaneously."""

    attacker: Card
    defender: Card

    def __init__(self, player: int, attacker: Card, defender: Card, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.attacker, self.defender = attacker, defender


@dataclass(slots=True, eq=False)
class Hit:
    """One portion of a damage action; prepare-phase reactions (divine shield) may lower ``amount``."""

    source: Card | None
    target: Card
    amount: int

    def __init__(self, source: Card | None, target: Card, amount: int) -> None:
        self.source, self.target, self.amount = source, target, amount


@dataclass(slots=True, eq=False)
class Damage(GameAction):
    """Deal damage; all hits of one action land simultaneously."""

    hits: list[Hit] = field(default_factory=list)

    def __init__(self, player: int, hits: list[Hit] | None = None, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.hits = [] if hits is None else hits


@dataclass(slots=True, eq=False)
class Heal(GameAction):
    """Restore health to each target, never above its maximum."""

    source: Card | None = None
    targets: list[Card] = field(default_factory=list)
    amount: int = 0

    def __init__(self, player: int, source: Card | None = None, targets: list[Card] | None = None, amount: int = 0, *,
                 priority: int = 0, order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.source, self.amount = source, amount
        self.targets = [] if targets is None else targets


@dataclass(slots=True, eq=False)
class Buff(GameAction):
    """Give each target +attack/+health (health buffs raise the maximum too)."""

    source: Card | None = None
    targets: list[Card] = field(default_factory=list)
    attack: int = 0
    health: int = 0

    def __init__(self, player: int, source: Card | None = None, targets: list[Card] | None = None, attack: int = 0,
                 health: int = 0, *, priority: int = 0, order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.source, self.attack, self.health = source, attack, health
        self.targets = [] if targets is None else targets


@dataclass(slots=True, eq=False)
class GiveKeyword(GameAction):
    """Give each target a keyword."""

    source: Card | None = None
    targets: list[Card] = field(default_factory=list)
    keyword: int = 0

    def __init__(self, player: int, source: Card | None = None, targets: list[Card] | None = None, keyword: int = 0, *,
                 priority: int = 0, order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.source, self.keyword = source, keyword
        self.targets = [] if targets is None else targets


@dataclass(slots=True, eq=False)
class Freeze(GameAction):
    """Freeze each target: it loses its next attack."""

    source: Card | None = None
    targets: list[Card] = field(default_factory=list)

    def __init__(self, player: int, source: Card | None = None, targets: list[Card] | None = None, *, priority: int = 0,
                 order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.source = source
        self.targets = [] if targets is None else targets


@dataclass(slots=True, eq=False)
class Destroy(GameAction):
    """Mark each target minion for the reaper (or destroy a weapon)."""

    source: Card | None = None
    targets: list[Card] = field(default_factory=list)

    def __init__(self, player: int, source: Card | None = None, targets: list[Card] | None = None, *, priority: int = 0,
                 order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.source = source
        self.targets = [] if targets is None else targets


@dataclass(slots=True, eq=False)
class GainArmor(GameAction):
    """Give a hero armor, which absorbs damage before health."""

    hero: Card
    amount: int = 0

    def __init__(self, player: int, hero: Card, amount: int = 0, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.hero, self.amount = hero, amount


@dataclass(slots=True, eq=False)
class GainMana(GameAction):
    """Give the player mana to spend this turn (not a crystal)."""

    amount: int = 1

    def __init__(self, player: int, amount: int = 1, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.amount = amount


@dataclass(slots=True, eq=False)
class TriggerAbility(GameAction):
    """A card's ability fires: its targets are resolved and its effect becomes reactions."""

    card: Card
    ability: Ability
    target: Card | None = None  # the declared target, for 'chosen' selectors
    trigger_card: Card | None = None  # the card that caused the trigger
    fizzled: bool = field(default=False, kw_only=True)  # the declared target was no longer legal
    #: a deathrattle's: the nearest minion that stood right of the dead card and lived (None: none did)
    left_of: Card | None = field(default=None, kw_only=True)

    def __init__(self, player: int, card: Card, ability: Ability, target: Card | None = None,
                 trigger_card: Card | None = None, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False, fizzled: bool = False, left_of: Card | None = None) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card, self.ability, self.target = card, ability, target
        self.trigger_card, self.fizzled, self.left_of = trigger_card, fizzled, left_of


@dataclass(slots=True, eq=False)
class AddToHand(GameAction):
    """Put a newly created card (such as The Coin) into the player's hand; it burns if the hand is full."""

    card: Card

    def __init__(self, player: int, card: Card, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card = card


@dataclass(slots=True, eq=False, init=False)  # the parent's compiled __init__
class StartGame(GameAction):
    """Deal the opening hands; then either the mulligan begins, or the second player gets the coin and the first
    turn starts."""


# --- the mulligan ------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class MulliganMark(GameAction):
    """In the mulligan, mark a card of the opening hand to be put back (the player is not done yet)."""

    card: Card

    def __init__(self, player: int, card: Card, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card = card


@dataclass(slots=True, eq=False)
class Mulligan(GameAction):
    """The player is done with its mulligan: each marked card is replaced by a card drawn from the deck, then the
    marked cards are shuffled into the deck. ``returned`` and ``drawn`` are filled in when it is performed."""

    returned: list[Card] = field(default_factory=list, kw_only=True)
    drawn: list[Card] = field(default_factory=list, kw_only=True)

    def __init__(self, player: int, *, priority: int = 0, order_of_play: int = 0, cancelled: bool = False,
                 returned: list[Card] | None = None, drawn: list[Card] | None = None) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.returned = [] if returned is None else returned
        self.drawn = [] if drawn is None else drawn


# --- death and the end -------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Reap(GameAction):
    """The death reaper: move every mortally wounded minion to its owner's graveyard at once.

    ``right_neighbours`` holds, for each of ``cards``, the nearest minion to its right on its battlefield that is
    not reaped with it, or None (filled in the prepare phase): a deathrattle summons just left of that minion.
    """

    cards: list[Card] = field(default_factory=list)
    right_neighbours: list[Card | None] = field(default_factory=list, kw_only=True)

    def __init__(self, player: int, cards: list[Card] | None = None, *, priority: int = 0, order_of_play: int = 0,
                 cancelled: bool = False, right_neighbours: list[Card | None] | None = None) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.cards = [] if cards is None else cards
        self.right_neighbours = [] if right_neighbours is None else right_neighbours


@dataclass(slots=True, eq=False)
class GameOver(GameAction):
    """Record the end of the game: a winner, a draw or the turn limit."""

    result: Result = Result.WIN
    winner: int | None = None

    def __init__(self, player: int, result: Result = Result.WIN, winner: int | None = None, *, priority: int = 0,
                 order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.result, self.winner = result, winner



@dataclass(slots=True, eq=False)
class StopLoop(GameAction):
    """End a game whose root action passed one of the action system's bounds: a draw, ``Result.LOOP``.

    ``card`` is the card most likely looping (the one whose reaction was next), ``reason`` the bound passed,
    ``unplayed`` the card played by the broken-off action if it had not reached its zone yet (a spell being
    cast). Minions left dying, spent weapons and the unplayed card go to the graveyard, without triggers.
    """

    card: Card | None = None
    reason: str = ""
    unplayed: Card | None = None

    def __init__(self, player: int, card: Card | None = None, reason: str = "", unplayed: Card | None = None, *,
                 priority: int = 0, order_of_play: int = 0, cancelled: bool = False) -> None:
        self.player, self.priority, self.order_of_play, self.cancelled = player, priority, order_of_play, cancelled
        self.card, self.reason, self.unplayed = card, reason, unplayed
