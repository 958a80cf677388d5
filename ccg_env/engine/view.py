"""GameView: what one player may know about a game, read-only, plus determinized clones for search.

Agents that need the rules (heuristic, search, a person at the terminal) read the game through a view and
never touch the :class:`~ccg_env.engine.Game` itself. A view built for ``player`` shows:

=========================  =====================================================================
shown                      how
=========================  =====================================================================
own hand                   every card (:class:`CardView`), in hand order
own secrets                every card
both heroes, weapons,      every card, with current attack, health, armor, durability, keywords,
both battlefields          sleeping / frozen state and attacks made this turn
both graveyards            every card (played and dead cards are public)
mana, fatigue              both players' current and maximum mana, both fatigue counters
heroes' classes, powers    both heroes' classes, hero powers (cost, text) and uses this turn
mulligan                   whether the game is in the mulligan, and the viewer's own marked cards
counts                     enemy hand size, both deck sizes, enemy secret count
legal choices              the viewer's legal choices, their action ids and descriptions (on turn only)
preferred targets          the targets the ``preferred`` mark of an own hand card names (AutoTarget)
public log                 the reaction log, hidden cards and every enemy draw shown as "a card"
=========================  =====================================================================

Hidden: the enemy's hand cards (and their uids), the enemy's mulligan marks (and which cards it put back or drew
in their place), the enemy's secrets (count only), the order of both decks
(and so which card either player draws next), the game's random generator state (so future random targets
are unknown) and the raw log objects (they name drawn cards). Deck *contents* are public in the sense that
each player's decklist is known, so :meth:`GameView.determinize` samples the enemy's hidden cards from that
player's true unseen pool (deck + hidden hand + secrets), which is what a player who knows the opposing
decklist and has watched every public event could infer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from .choices import describe_choice
from .rng import Rng
from .targeting import auto_target, candidates, play_targets
from .vocabulary import CardClass, CardType, Keyword, Zones

if TYPE_CHECKING:
    from .cards import CardDef
    from .choices import Choice
    from .game import Game
    from .log_words import LogWords
    from .rules import Rules
    from .state import Card


class ActionCodec(Protocol):
    """What a view needs to speak in action ids: the env's codec (``ccg_env.env.codec.ActionCodec``) is one."""

    def encode_all(self, game: Game, choices: list[Choice]) -> list[int]: ...

    def decode(self, game: Game, action_id: int) -> Choice | None: ...

_PUBLIC_ZONES = (Zones.HERO, Zones.WEAPON, Zones.BATTLEFIELD, Zones.GRAVEYARD)


class CardView(NamedTuple):
    """A read-only snapshot of one visible card.

    A named tuple rather than a frozen dataclass: the heuristic builds about a dozen card views per env step of
    training, and a named tuple is built about 3.7 times as fast (a frozen dataclass sets each field through
    ``object.__setattr__``; benchmarks/README.md has what that gives).
    """

    uid: int
    definition: CardDef
    owner: int
    zone: Zones
    cost: int
    attack: int
    health: int
    max_health: int
    armor: int
    durability: int
    keywords: int
    sleeping: bool
    frozen: bool
    attacks_made: int

    @classmethod
    def of(cls, card: Card) -> CardView:
        """The view of ``card`` as it stands now."""
        return cls(card.uid, card.definition, card.owner, card.zone, card.cost, card.attack, card.health,
                   card.max_health, card.armor, card.durability, card.keywords, card.sleeping,
                   card.frozen_on_turn > 0, card.attacks_made)

    @property
    def card_id(self) -> str:
        return self.definition.id

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def card_type(self) -> CardType:
        return self.definition.card_type

    def has(self, keyword: Keyword) -> bool:
        """Whether the card currently has ``keyword``."""
        return bool(self.keywords & int(keyword))


@dataclass(frozen=True, slots=True)
class SideView:
    """One player's public zones and counters; ``hand`` and ``secrets`` are empty for the enemy side."""

    index: int
    hero: CardView
    weapon: CardView | None
    battlefield: tuple[CardView, ...]
    hand: tuple[CardView, ...]
    secrets: tuple[CardView, ...]
    hand_size: int
    deck_size: int
    secret_count: int
    mana: int
    max_mana: int
    fatigue: int
    hero_class: CardClass = CardClass.NEUTRAL
    hero_power: CardView | None = None  # None: the plain hero has no power
    hero_power_uses: int = 0  # uses this turn
    marked: tuple[int, ...] = ()  # uids of the hand cards marked to put back in the mulligan (own side only)


class GameView:
    """The game as ``player`` may see it (see the module docstring for exactly what is hidden).

    Args:
        game: the game to look at; the view reads it live (build a new view after the game changes if
            you cached sides).
        player: the viewer's seat, 0 or 1.
        codec: translates choices to action ids; optional for views that never ask for ids.
    """

    __slots__ = ("_game", "player", "_codec")

    def __init__(self, game: Game, player: int, codec: ActionCodec | None = None) -> None:
        if player not in (0, 1):
            raise ValueError(f"GameView player must be 0 or 1, got {player!r}")
        self._game = game
        self.player = player
        self._codec = codec

    # --- match -------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._game.state.rules

    @property
    def turn(self) -> int:
        return self._game.state.turn

    @property
    def current_player(self) -> int:
        return self._game.state.current

    @property
    def is_my_turn(self) -> bool:
        return self._game.state.current == self.player and not self._game.is_over

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def in_mulligan(self) -> bool:
        """Whether the game is in the mulligan (the player on turn chooses opening cards to put back)."""
        return self._game.in_mulligan

    @property
    def winner(self) -> int | None:
        return self._game.winner

    # --- sides -------------------------------------------------------------------------------

    @property
    def own(self) -> SideView:
        """The viewer's side, hand and secrets included."""
        return self._side(self.player, visible=True)

    @property
    def enemy(self) -> SideView:
        """The opponent's side: hand and secrets shown only as counts."""
        return self._side(1 - self.player, visible=False)

    def _side(self, index: int, *, visible: bool) -> SideView:
        p = self._game.state.players[index]
        of = CardView.of
        hidden: tuple[CardView, ...] = ()
        return SideView(
            index, of(p.hero), of(p.weapon[0]) if p.weapon else None,
            tuple(map(of, p.battlefield)),
            tuple(map(of, p.hand)) if visible else hidden,
            tuple(map(of, p.secrets)) if visible else hidden,
            len(p.hand), len(p.deck), len(p.secrets), p.mana, p.max_mana, p.fatigue,
            p.hero.definition.card_class, of(p.hero_power[0]) if p.hero_power else None, p.hero_power_uses,
            tuple(p.marked) if visible else (),
        )

    def graveyard(self, index: int) -> tuple[CardView, ...]:
        """Player ``index``'s graveyard (public), oldest first."""
        return tuple(map(CardView.of, self._game.state.players[index].graveyard))

    def card(self, uid: int) -> CardView | None:
        """A visible card by uid (None for hidden or unknown cards)."""
        card = self._game.state.find(uid)
        if card is None or not self._visible(card):
            return None
        return CardView.of(card)

    def _visible(self, card: Card) -> bool:
        if card.owner == self.player:
            return card.zone is not Zones.DECK
        return card.zone in _PUBLIC_ZONES or card.definition.card_type is CardType.HERO_POWER

    # --- choices -----------------------------------------------------------------------------

    def legal_choices(self) -> list[Choice]:
        """The viewer's legal choices in the engine's stable order (empty when it is not their turn)."""
        return self._game.legal_actions() if self.is_my_turn else []

    def action_ids(self, choices: list[Choice]) -> list[int]:
        """The action ids of choices of the current position (needs a codec; viewer on turn only)."""
        self._require_turn("action_ids")
        return self._require_codec().encode_all(self._game, choices)

    def legal_action_ids(self) -> list[int]:
        """Action ids of :meth:`legal_choices`, in the same order."""
        return self.action_ids(self.legal_choices())

    def choice_of(self, action_id: int) -> Choice | None:
        """The choice an action id stands for now (None when its slots are empty; viewer on turn only)."""
        self._require_turn("choice_of")
        return self._require_codec().decode(self._game, action_id)

    def describe(self, choice: Choice) -> str:
        """A readable line for one of the viewer's legal choices, with card names."""
        if choice not in self.legal_choices():
            raise ValueError(f"{choice} is not a legal choice of player {self.player} now")
        return describe_choice(self._game, choice)

    def _require_turn(self, method: str) -> None:
        """Off turn, slots would name the enemy's hand cards: refuse rather than leak them."""
        if not self.is_my_turn:
            raise ValueError(f"GameView.{method}: player {self.player} is not on turn (or the game is over)")

    def preferred_target(self, card_uid: int) -> int | None:
        """The uid the tutorial's AutoTarget proposes for a card in the viewer's hand (``preferred`` mark)."""
        target = auto_target(self._game, self._hand_card(card_uid), preferred=True)
        return None if target is None else target.uid

    def preferred_targets(self, card_uid: int) -> list[int]:
        """Uids of every legal target of a card in the viewer's hand that its ``preferred`` mark names."""
        card = self._hand_card(card_uid)
        spec = card.definition.target
        if spec is None:
            return []
        state = self._game.state
        allowed = play_targets(state, card)
        return [c.uid for c in candidates(state, card.owner, spec.preferred, targeted=True) if c in allowed]

    def hero_power_targets(self, *, preferred: bool = True) -> list[int | None]:
        """Uids of the legal targets of the viewer's hero power (``preferred``: those its preferred mark names).

        ``[None]`` for a power without a target spec; empty without a hero power.
        """
        powers = self._game.state.players[self.player].hero_power
        if not powers:
            return []
        power = powers[0]
        spec = power.definition.target
        if spec is None:
            return [None]
        state = self._game.state
        allowed = play_targets(state, power)
        mark = spec.preferred if preferred else spec.allowed
        return [c.uid for c in candidates(state, power.owner, mark, targeted=True) if c in allowed]

    def _hand_card(self, card_uid: int) -> Card:
        card = next((c for c in self._game.state.players[self.player].hand if c.uid == card_uid), None)
        if card is None:
            raise ValueError(f"card #{card_uid} is not in player {self.player}'s hand")
        return card

    def _require_codec(self) -> ActionCodec:
        if self._codec is None:
            raise ValueError("this GameView was built without a codec; pass one to use action ids")
        return self._codec

    # --- log ---------------------------------------------------------------------------------

    def log_size(self) -> int:
        """Number of entries in the game log (0 when logging is off)."""
        return len(self._game.log)

    def public_log(self, start: int = 0) -> list[str]:
        """Log lines from entry ``start`` on, with every uid shown as a name only if the viewer may see it.

        Cards the enemy drew are always "a card" there, even once played, as the draw itself was hidden.
        """
        lines = []
        for entry in self._game.log[start:]:
            secret_draw = entry.kind in _DRAWING_KINDS and entry.action.player != self.player
            fields = ", ".join(f"{k}={self._name_uids(k, v, secret_draw and k == 'drawn')}"
                               for k, v in entry.fields.items() if k != "player")
            note = f"  [cancelled: {entry.cancelled}]" if entry.cancelled else ""
            who = "you" if entry.action.player == self.player else "enemy"
            lines.append(f"{'  ' * entry.depth}{entry.kind}({who}{', ' if fields else ''}{fields}){note}")
        return lines

    def log_words(self, names: tuple[str, str] = ("Player 1", "Player 2")) -> LogWords:
        """The log in words as the viewer may know it (see :mod:`ccg_env.engine.log_words`)."""
        from ..engine.log_words import LogWords

        return LogWords(self._game, self.player, names, can_see=self._visible)

    def log_in_words(self, start: int = 0) -> list[str]:
        """The log from entry ``start`` on as sentences ("You play Fireball on Chillwind Yeti"), indented by depth,
        naming only what the viewer may see."""
        return self.log_words().text(start)

    def _name_uids(self, key: str, value: object, hide: bool) -> object:
        """Show uids as card names when visible now (``hide``: never, e.g. what the enemy drew back then)."""
        if isinstance(value, list):
            return "[" + ", ".join(str(self._name_uids(key, v, hide)) for v in value) + "]"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k}: {self._name_uids(k, v, hide)}" for k, v in value.items()) + "}"
        if isinstance(value, int) and not isinstance(value, bool) and key in _UID_FIELDS:
            card = self._game.state.find(value)
            if hide or card is None or not self._visible(card):
                return "a card"
            if card.zone is Zones.HERO:
                return "your hero" if card.owner == self.player else "enemy hero"
            return f"{card.definition.name}#{card.uid}"
        return value

    # --- search ------------------------------------------------------------------------------

    def determinize(self, rng: random.Random) -> Game:
        """A full clone of the game in which everything the viewer cannot see is resampled.

        The viewer's deck is shuffled. The enemy's mulligan marks are dropped. The enemy's hidden cards (collectible hand cards, secrets, deck) are
        pooled and dealt again at random: secrets first (distinct secret cards), then the hand slots, and the
        rest becomes the deck in random order. Cards created into the hand by public effects (non-collectible
        ones such as The Coin) stay. The clone gets a fresh random generator drawn from ``rng`` and no log.
        Hidden cards are put in a canonical order before shuffling, so the clone depends only on what the
        viewer may know (and the pooled decklist remainder) and on ``rng``.

        Args:
            rng: the sampler's generator (the search agent's own, seeded).
        """
        game = self._game.clone()
        state = game.state
        state.log = None
        state.rng = Rng(rng.getrandbits(64))
        own_deck = state.players[self.player].deck
        own_deck.sort(key=_card_id)  # a canonical order first, so the result depends on nothing hidden
        rng.shuffle(own_deck)
        _redeal_hidden(state.players[1 - self.player], rng)
        return game


_UID_FIELDS = frozenset({"card", "cards", "target", "targets", "source", "attacker", "defender", "hero", "drawn",
                         "trigger_card", "returned"})
#: Log entries whose ``drawn`` cards the other player never saw.
_DRAWING_KINDS = frozenset({"DrawCards", "Mulligan"})


def _redeal_hidden(enemy, rng: random.Random) -> None:
    """Deal the enemy's hidden cards again from their pooled unseen cards (secrets, hand slots, deck).

    The enemy's mulligan marks are hidden too: the redealt enemy has marked nothing yet.
    """
    enemy.marked = []
    hidden_slots = [i for i, c in enumerate(enemy.hand) if c.definition.collectible]
    pool = [enemy.hand[i] for i in hidden_slots] + list(enemy.secrets) + list(enemy.deck)
    pool.sort(key=_card_id)
    rng.shuffle(pool)
    secrets = _pick_secrets(pool, len(enemy.secrets))
    enemy.secrets = [_moved(c, Zones.SECRETS) for c in secrets]
    for slot in hidden_slots:
        enemy.hand[slot] = _moved(pool.pop(), Zones.HAND)
    enemy.deck = [_moved(c, Zones.DECK) for c in pool]


def _card_id(card: Card) -> str:
    return card.definition.id


def _pick_secrets(pool: list[Card], count: int) -> list[Card]:
    """Remove and return ``count`` secret cards with distinct definitions from a shuffled pool."""
    picked: list[Card] = []
    for card in list(pool):
        if len(picked) == count:
            break
        if card.definition.card_type is CardType.SECRET and all(p.definition is not card.definition for p in picked):
            picked.append(card)
            pool.remove(card)
    return picked


def _moved(card: Card, zone: Zones) -> Card:
    """A copy of ``card`` in ``zone`` (deck cards are shared between clones, so never mutate them)."""
    if card.zone is zone:
        return card
    out = card.copy()
    out.zone = zone
    return out
