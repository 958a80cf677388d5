"""Text rendering of a game from one seat's point of view: boards, own hand, mana, heroes and recent actions.

Only what the viewer may know is drawn: the enemy hand and secrets as counts, and the recent actions in words
through :meth:`~ccg_env.engine.view.GameView.log_in_words` (cards the viewer cannot see, and every card the enemy
drew, appear as "a card"), never the raw log, whose entries name every card by uid. Turns are numbered per player.
During a game's draft the text is the viewer's draft instead (:func:`render_draft`).
"""

from __future__ import annotations

from ..engine import Card, Game, Player
from ..engine.cards import keyword_names
from ..engine.draft import Draft
from ..engine.log_words import player_turn
from ..engine.view import GameView

#: How many of the most recent root actions (each with its reaction tree) the render shows.
RECENT_ROOT_ACTIONS = 3
#: Longest reaction-tree excerpt shown, in lines (the newest lines are kept).
MAX_LOG_LINES = 30


def render_text(game: Game, viewer: int, *, names: tuple[str, str] = ("player_0", "player_1"),
                recent: int = RECENT_ROOT_ACTIONS, since: int | None = None) -> str:
    """Return the board as text, seen by seat ``viewer``: the enemy hand and secrets appear only as counts.

    Args:
        game: the game to draw.
        viewer: the seat whose hand and secrets are shown.
        names: the seats' display names.
        recent: how many recent root actions to list with their reaction trees (needs ``game.log``).
        since: list the log from this entry on instead (e.g. everything one decision set off).
    """
    if game.draft is not None and game.in_draft:
        return render_draft(game.draft, viewer)
    state = game.state
    me, enemy = state.players[viewer], state.players[1 - viewer]
    lines = [_status_line(game, names)]
    lines += _side_lines(f"Enemy ({names[1 - viewer]})", enemy, hidden=True)
    lines += _side_lines(f"You ({names[viewer]})", me, hidden=False)
    if game.in_mulligan and me.marked:
        slots = ", ".join(f"[{i}]" for i, card in enumerate(me.hand) if card.uid in me.marked)
        lines.append(f"  marked to put back: {slots}")
    lines.append("Recent actions:")
    actions = recent_actions(game, viewer, recent) if since is None else (
        GameView(game, viewer).log_in_words(since) or ["(none)"])
    lines += ["  " + line for line in actions]
    return "\n".join(lines)


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


def _status_line(game: Game, names: tuple[str, str]) -> str:
    """Whose turn it is, numbered per player ("heuristic's turn 3"), or the result."""
    state = game.state
    if state.result is None and game.in_mulligan:
        return f"Mulligan: {names[state.current]} chooses opening cards to put back"
    if state.result is None:
        return f"{names[state.current]}'s turn {player_turn(state.turn, state.current)} (game turn {state.turn})"
    winner = f", winner {names[state.winner]}" if state.winner is not None else ""
    return f"Game turn {state.turn}: game over ({state.result.value}{winner})"


def _side_lines(title: str, player: Player, *, hidden: bool) -> list[str]:
    hero = player.hero
    armor = f" +{hero.armor} armor" if hero.armor else ""
    weapon = f", weapon {_weapon(player.weapon[0])}" if player.weapon else ""
    frozen = " (frozen)" if hero.is_frozen else ""
    health = f"{hero.health}/{hero.max_health}" if hero.health > 0 else f"0/{hero.max_health} (defeated)"
    lines = [
        f"{title}: hero {health}{armor}, attack {hero.attack}{weapon}{frozen}",
        f"  mana {player.mana}/{player.max_mana}, deck {len(player.deck)}, hand {len(player.hand)}, "
        f"graveyard {len(player.graveyard)}, fatigue {player.fatigue}",
        "  battlefield: " + (", ".join(_minion(c) for c in player.battlefield) or "(empty)"),
    ]
    if player.hero_power or hero.definition.card_class.value != "neutral":
        lines.insert(1, f"  {_hero_and_power(player)}")
    if hidden:
        lines.append(f"  secrets: {len(player.secrets)} (hidden)")
    else:
        lines.append("  secrets: " + (", ".join(c.name for c in player.secrets) or "(none)"))
        lines.append("  hand: " + (", ".join(f"[{i}] {_hand_card(c)}" for i, c in enumerate(player.hand))
                                   or "(empty)"))
    return lines


def _hero_and_power(player: Player) -> str:
    """The hero's name and class, and its hero power: cost, uses this turn and text."""
    hero = player.hero.definition
    text = f"{hero.name} ({hero.card_class.value})"
    if not player.hero_power:
        return text + ", no hero power"
    power = player.hero_power[0]
    limit = power.definition.uses_per_turn
    return (f"{text}, hero power {power.name}#{power.uid} ({power.cost}) used {player.hero_power_uses}/{limit} this "
            f"turn: {power.definition.text}")


def _weapon(card: Card) -> str:
    return f"{card.name}#{card.uid} {card.attack}/{card.durability}"


def _minion(card: Card) -> str:
    tags = keyword_names(card.keywords)
    if card.sleeping:
        tags.append("sleeping")
    if card.is_frozen:
        tags.append("frozen")
    extra = f" ({', '.join(tags)})" if tags else ""
    return f"{card.name}#{card.uid} {card.attack}/{card.health}{extra}"


def _hand_card(card: Card) -> str:
    stats = {"minion": f" {card.attack}/{card.health}", "weapon": f" {card.attack}/{card.durability}"}
    return f"{card.name}#{card.uid} ({card.cost}){stats.get(card.card_type.value, '')}"


def recent_actions(game: Game, viewer: int, roots: int = RECENT_ROOT_ACTIONS) -> list[str]:
    """Return the last ``roots`` root actions and their reactions as seat ``viewer`` may see them (public log),
    indented by depth in the reaction tree."""
    if game.state.log is None:
        return ["(the action log is off: create the game or env with log=True to see actions)"]
    log = game.state.log
    start, seen = len(log), 0
    while start > 0 and seen < roots:
        start -= 1
        seen += log[start].depth == 0
    lines = GameView(game, viewer).log_in_words(start)
    if len(lines) > MAX_LOG_LINES:
        lines = [f"... ({len(lines) - MAX_LOG_LINES + 1} earlier lines)"] + lines[-MAX_LOG_LINES + 1:]
    return lines or ["(none yet)"]
