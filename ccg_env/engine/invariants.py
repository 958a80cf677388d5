"""Invariants every game state must hold between root actions, checked by tests, fuzzers and debuggers.

:func:`check_invariants` checks one state; :class:`InvariantMonitor` also checks what must hold from one
root action to the next (no card ever disappears, the log only grows and stays a well-formed tree).
Each broken invariant raises :class:`InvariantError` whose message starts with the invariant's name:

=====================  ==============================================================================
name                   what must hold
=====================  ==============================================================================
``match``              two players, current player 0 or 1, turn at least 1
``zones``              every card id in exactly one zone; ``card.zone`` and ``card.owner`` match the list
                       holding it; every uid below ``next_uid``; order of play below ``next_order``
``zone-kinds``         one hero, at most one weapon, only minions on the battlefield, distinct secrets
``zone-limits``        hand, battlefield and secrets within the rules' limits
``hero-power``         at most one hero power per player, of type hero_power, owned by it, in no zone, with a
                       uid of its own; its uses this turn within ``0..uses_per_turn`` (0 without a power)
``stats``              health never above maximum; no negative cost, attack, armor, durability, attacks;
                       no minion at 0 or less health in a hand or deck
``mana``               ``0 <= mana <= rules.max_mana`` and ``0 <= max_mana <= rules.max_mana``; fatigue >= 0
``reaped``             no minion at 0 or less health on a battlefield, no spent weapon equipped
``result``             over means a recorded result whose winner agrees with the heroes' health (a loop has
                       no winner); not over means no winner, both heroes alive and the turn within the limit
``mulligan``           marks only in the mulligan phase, only by the player deciding, distinct, each one a card
                       of that player's hand, never more than its deck can replace
``log``                depths start at 0, grow by at most one per entry, cancelled actions have no reactions
``nothing-lost``       (monitor) every card id in a zone before a root action is in a zone after it
=====================  ==============================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .state import Card, GamePhase, GameState, Player, Result
from .vocabulary import CardType, Zones

if TYPE_CHECKING:
    from .game import Game
    from .log import LogEntry


class InvariantError(AssertionError):
    """A game state broke an invariant; the message names it first, e.g. ``"[zone-limits] ..."``."""

    def __init__(self, name: str, detail: str) -> None:
        super().__init__(f"[{name}] {detail}")
        self.invariant = name
        self.detail = detail


def _fail(name: str, detail: str) -> None:
    raise InvariantError(name, detail)


# --- one state ---------------------------------------------------------------------------------


def check_match(state: GameState) -> None:
    """Two players in seat order, a current player of 0 or 1, a turn of at least 1."""
    if len(state.players) != 2 or [p.index for p in state.players] != [0, 1]:
        _fail("match", f"expected players 0 and 1, got {[p.index for p in state.players]}")
    if state.current not in (0, 1):
        _fail("match", f"current player is {state.current!r}")
    if state.turn < 1:
        _fail("match", f"turn is {state.turn}")


def check_zones(state: GameState) -> None:
    """Every card id in exactly one zone, listed where its ``zone`` and ``owner`` say."""
    seen: dict[int, str] = {}
    for player in state.players:
        for zone, cards in player.zones():
            where = f"player {player.index} {zone.name}"
            for card in cards:
                if card.zone is not zone:
                    _fail("zones", f"{card!r} is listed in {where} but says {Zones(card.zone).name}")
                if card.owner != player.index:
                    _fail("zones", f"{card!r} is listed in {where} but its owner is {card.owner}")
                if card.uid in seen:
                    _fail("zones", f"card id {card.uid} appears twice: in {seen[card.uid]} and in {where}")
                if not 0 < card.uid < state.next_uid:
                    _fail("zones", f"{card!r} in {where} has a uid outside 1..{state.next_uid - 1}")
                if card.order_of_play >= state.next_order:
                    _fail("zones", f"{card!r} has order of play {card.order_of_play} >= next {state.next_order}")
                seen[card.uid] = where


def check_zone_kinds(state: GameState) -> None:
    """One hero, at most one weapon, only minions on the battlefield, only distinct secrets."""
    for player in state.players:
        who = f"player {player.index}"
        if len(player.hero_zone) != 1 or player.hero.card_type is not CardType.HERO:
            _fail("zone-kinds", f"{who} has heroes {player.hero_zone}")
        if len(player.weapon) > 1 or any(c.card_type is not CardType.WEAPON for c in player.weapon):
            _fail("zone-kinds", f"{who} has weapons {player.weapon}")
        if any(c.card_type is not CardType.MINION for c in player.battlefield):
            _fail("zone-kinds", f"{who} has a non-minion on the battlefield: {player.battlefield}")
        ids = [c.definition.id for c in player.secrets]
        if len(set(ids)) != len(ids) or any(c.card_type is not CardType.SECRET for c in player.secrets):
            _fail("zone-kinds", f"{who} has secrets {ids}")


def check_zone_limits(state: GameState) -> None:
    """Hand, battlefield and secrets within the rules' sizes."""
    rules = state.rules
    for player in state.players:
        for name, cards, limit in (("hand", player.hand, rules.max_hand),
                                   ("battlefield", player.battlefield, rules.max_battlefield),
                                   ("secrets", player.secrets, rules.max_secrets)):
            if len(cards) > limit:
                _fail("zone-limits", f"player {player.index} has {len(cards)} cards in {name}, limit {limit}")


def check_hero_power(state: GameState) -> None:
    """A player's hero power is one card of its own, outside the zones; its uses stay within its limit."""
    zoned = {card.uid for card in state.all_cards()}
    for player in state.players:
        who = f"player {player.index}"
        powers = player.hero_power
        if len(powers) > 1 or any(c.card_type is not CardType.HERO_POWER for c in powers):
            _fail("hero-power", f"{who} has hero powers {powers}")
        for power in powers:
            if power.owner != player.index or power.zone is not Zones.NONE:
                _fail("hero-power", f"{power!r} of {who} has owner {power.owner} and zone {Zones(power.zone).name}")
            if power.uid in zoned or not 0 < power.uid < state.next_uid:
                _fail("hero-power", f"{power!r} of {who} has a uid used by a card or outside 1..{state.next_uid - 1}")
        limit = powers[0].definition.uses_per_turn if powers else 0
        if not 0 <= player.hero_power_uses <= limit:
            _fail("hero-power", f"{who} used its hero power {player.hero_power_uses} times (limit {limit})")


_UNPLAYED = (Zones.DECK, Zones.HAND)


def _card_stats_problem(card: Card) -> str | None:
    if card.health > card.max_health:
        return f"health {card.health} above its maximum {card.max_health}"
    if card.health <= 0 and card.zone in _UNPLAYED and card.card_type is CardType.MINION:
        return f"a minion at {card.health} health"
    for name in ("cost", "attack", "armor", "durability", "attacks_made", "frozen_on_turn"):
        if getattr(card, name) < 0:
            return f"negative {name} {getattr(card, name)}"
    return None


def check_stats(state: GameState) -> None:
    """No health above maximum and no negative cost, attack, armor, durability or attack count."""
    for card in state.all_cards():
        if (card.health > card.max_health or card.cost < 0 or card.attack < 0 or card.armor < 0
                or card.durability < 0 or card.attacks_made < 0 or card.frozen_on_turn < 0
                or card.health <= 0 and card.zone in _UNPLAYED and card.card_type is CardType.MINION):
            _fail("stats", f"{card!r} in {Zones(card.zone).name}: {_card_stats_problem(card)}")


def check_mana(state: GameState) -> None:
    """Mana and crystals within ``0..rules.max_mana``; fatigue never negative."""
    top = state.rules.max_mana
    for p in state.players:
        if not (0 <= p.mana <= top and 0 <= p.max_mana <= top):
            _fail("mana", f"player {p.index} has {p.mana}/{p.max_mana} mana (bounds 0..{top})")
        if p.fatigue < 0:
            _fail("mana", f"player {p.index} has fatigue {p.fatigue}")


def check_reaped(state: GameState) -> None:
    """After a root action no dying minion stays on a battlefield and no spent weapon stays equipped."""
    for player in state.players:
        for card in player.battlefield:
            if card.health <= 0:
                _fail("reaped", f"{card!r} of player {player.index} is at {card.health} health but not reaped")
        for card in player.weapon:
            if card.durability <= 0:
                _fail("reaped", f"{card!r} of player {player.index} is equipped with {card.durability} durability")


def _alive(player: Player) -> bool:
    return player.hero.health > 0


def check_result(state: GameState) -> None:
    """A finished game has a recorded, consistent result; a running one has no winner and live heroes."""
    if state.result is None:
        _check_running(state)
    else:
        _check_finished(state)


def _check_running(state: GameState) -> None:
    p0, p1 = state.players
    if state.winner is not None:
        _fail("result", f"winner {state.winner} recorded but the game is not over")
    if not (_alive(p0) and _alive(p1)):
        _fail("result", f"a hero is dead ({p0.hero.health}, {p1.hero.health}) but the game goes on")
    if state.turn > state.rules.turn_limit:
        _fail("result", f"turn {state.turn} is past the limit {state.rules.turn_limit} but the game goes on")


def _check_finished(state: GameState) -> None:
    result, winner, (p0, p1) = state.result, state.winner, state.players
    health = f"hero health {p0.hero.health}, {p1.hero.health}"
    if result is Result.WIN:
        if winner not in (0, 1):
            _fail("result", f"a win with winner {winner!r}")
        if not _alive(state.players[winner]) or _alive(state.players[1 - winner]):
            _fail("result", f"winner {winner} but {health}")
    elif result is Result.DRAW:
        if winner is not None or _alive(p0) or _alive(p1):
            _fail("result", f"a draw with winner {winner!r} and {health}")
    elif result is Result.LOOP:
        if winner is not None:
            _fail("result", f"a loop (a draw) with winner {winner!r}")
    elif winner is not None or state.turn <= state.rules.turn_limit:
        _fail("result", f"{result.value} at turn {state.turn} (limit {state.rules.turn_limit}), winner {winner!r}")


def check_mulligan(state: GameState) -> None:
    """Mulligan marks: only in the mulligan, only the deciding player's, distinct cards of its hand."""
    for player in state.players:
        marked = player.marked
        if not marked:
            continue
        who = f"player {player.index}"
        if state.phase is not GamePhase.MULLIGAN or player.index != state.current:
            _fail("mulligan", f"{who} has marks {marked} but is not deciding a mulligan")
        hand = {card.uid for card in player.hand}
        if len(set(marked)) != len(marked) or not hand.issuperset(marked):
            _fail("mulligan", f"{who} marked {marked}, not distinct cards of its hand {sorted(hand)}")
        if len(marked) > len(player.deck):
            _fail("mulligan", f"{who} marked {len(marked)} cards but its deck holds {len(player.deck)}")


def check_log(entries: list[LogEntry], start: int = 0, previous: LogEntry | None = None) -> None:
    """The log from ``start`` is a depth-first tree: depths from 0, at most +1 per entry, cancelled = leaf.

    Args:
        entries: the game log.
        start: first entry to check (the monitor checks only what each action appended).
        previous: the entry before ``start`` (None when ``start`` is 0).
    """
    for i in range(start, len(entries)):
        entry = entries[i]
        if previous is None:
            limit = 0
        else:
            limit = previous.depth if previous.cancelled else previous.depth + 1
        if not 0 <= entry.depth <= limit:
            _fail("log", f"entry {i} ({entry.kind}) has depth {entry.depth}, at most {limit} allowed after "
                         f"{'nothing' if previous is None else str(previous).strip()}")
        previous = entry


#: The one-state checks, in the order :func:`check_invariants` runs them.
STATE_CHECKS: tuple[Callable[[GameState], None], ...] = (
    check_match, check_zones, check_zone_kinds, check_zone_limits, check_hero_power, check_stats, check_mana,
    check_reaped, check_result, check_mulligan,
)


def check_invariants(game: Game, *, log_from: int = 0) -> None:
    """Check every invariant of a game between root actions (see the module docstring for the list).

    Args:
        game: the game to check.
        log_from: first log entry to check (checking only new entries keeps long games linear).

    Raises:
        InvariantError: naming the broken invariant and the cards or players involved.
    """
    state = game.state
    for check in STATE_CHECKS:
        check(state)
    if state.log is not None and log_from < len(state.log):
        check_log(state.log, log_from, state.log[log_from - 1] if log_from > 0 else None)


# --- across actions ----------------------------------------------------------------------------


def card_ids(state: GameState) -> set[int]:
    """The uids of every card in every zone."""
    return {card.uid for card in state.all_cards()}


class InvariantMonitor:
    """Checks a game after each root action, including what must hold across actions.

    Across actions: no card id that was in a zone disappears, and the log only grows (checked
    incrementally, so a whole game costs time linear in its length).
    """

    __slots__ = ("game", "_ids", "_log_size")

    def __init__(self, game: Game) -> None:
        self.game = game
        check_invariants(game)
        self._ids = card_ids(game.state)
        self._log_size = len(game.log)

    def check(self) -> None:
        """Check the game's current state against every invariant and against the previous check."""
        game = self.game
        log_size = len(game.log)
        if log_size < self._log_size:
            _fail("log", f"the log shrank from {self._log_size} to {log_size} entries")
        check_invariants(game, log_from=self._log_size)
        ids = card_ids(game.state)
        lost = self._ids - ids
        if lost:
            _fail("nothing-lost", f"card ids {sorted(lost)} left every zone")
        self._ids, self._log_size = ids, log_size

    def rebind(self, game: Game) -> None:
        """Follow another game object standing for the same game (a clone or a JSON round-trip)."""
        self.game = game
        self._log_size = min(self._log_size, len(game.log))


def broken_invariants(game: Game) -> list[str]:
    """Names and details of every broken one-state invariant (empty when all hold), for reports."""
    state = game.state
    checks = [(c.__name__, lambda c=c: c(state)) for c in STATE_CHECKS]
    if state.log is not None:
        checks.append(("check_log", lambda: check_log(state.log)))
    problems = []
    for name, check in checks:
        try:
            check()
        except InvariantError as exc:
            problems.append(str(exc))
        except Exception as exc:  # noqa: BLE001 - a state broken enough to crash a later check
            problems.append(f"[{name}] could not run on this state: {type(exc).__name__}: {exc}")
    return problems
