"""HumanAgent: a person at a terminal picks among numbered legal actions, seeing only their GameView.

Each decision prints the board from the person's seat (enemy hand and secrets as counts), their hand and
mana, the reaction log since their last decision (hidden cards named "a card"), then the legal actions
numbered from 0. Input that is not a number, or out of range, gets a message and a new prompt; ``q`` (or
end of input) raises :class:`QuitGame`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from ccg_env.engine.cards import keyword_names
from ccg_env.engine.log_words import player_turn

if TYPE_CHECKING:
    import numpy as np

    from ccg_env.engine.view import CardView, GameView, SideView

#: Longest stretch of the reaction log printed before a decision (the newest lines are kept).
MAX_LOG_LINES = 40


class QuitGame(Exception):
    """The person asked to stop (``q``) or the input ended."""


class HumanAgent:
    """Reads choices from ``stdin`` and writes the board to ``stdout`` (both default to the terminal)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, name: str = "you") -> None:
        self.name = name
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self._log_seen = 0

    def reset(self, seed: int | None = None) -> None:
        """Start reading the log from the beginning of the new game."""
        self._log_seen = 0

    def act(self, observation: Any, action_mask: np.ndarray, view: GameView | None = None) -> int:
        """Show the position and ask until a valid action number is typed."""
        if view is None:
            raise ValueError("HumanAgent shows the game through a GameView; act() got view=None")
        choices = view.legal_choices()
        ids = view.action_ids(choices)
        self._print(render_view(view, self._new_log_lines(view)))
        self._print("Legal actions:")
        for number, choice in enumerate(choices):
            self._print(f"  {number:>2}) {view.describe(choice)}")
        return ids[self._ask(len(choices))]

    def show(self, view: GameView, message: str) -> None:
        """Print the position, the log since the last decision and a message (e.g. the game's outcome)."""
        self._print(render_view(view, self._new_log_lines(view)))
        self._print(message)

    def _new_log_lines(self, view: GameView) -> list[str]:
        lines = view.log_in_words(self._log_seen)
        self._log_seen = view.log_size()
        if len(lines) > MAX_LOG_LINES:
            lines = [f"... ({len(lines) - MAX_LOG_LINES} earlier lines)"] + lines[-MAX_LOG_LINES:]
        return lines

    def _ask(self, count: int) -> int:
        while True:
            self.stdout.write(f"Your choice (0-{count - 1}, q to quit): ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self._print("")
                raise QuitGame("end of input")
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise QuitGame("quit")
            number = _parse_number(text, count)
            if isinstance(number, int):
                return number
            self._print(number)

    def _print(self, text: str) -> None:
        self.stdout.write(text + "\n")


def _parse_number(text: str, count: int) -> int | str:
    """The chosen index, or a message saying what was wrong with the input."""
    if not text:
        return f"Please type a number from 0 to {count - 1} (or q to quit)."
    try:
        number = int(text)
    except ValueError:
        return f"{text!r} is not a number: type a number from 0 to {count - 1} (or q to quit)."
    if not 0 <= number < count:
        return f"{number} is out of range: choose a number from 0 to {count - 1}."
    return number


def render_view(view: GameView, log_lines: list[str] | None = None) -> str:
    """The position as the viewer sees it, as text (plus the given log lines)."""
    own, enemy = view.own, view.enemy
    turn = player_turn(view.turn, view.current_player)
    if view.is_over:
        whose = "game over"
    elif view.in_mulligan:
        whose = "Your mulligan: put back cards, then keep the rest" if view.is_my_turn else "Enemy's mulligan"
    else:
        whose = f"Your turn {turn}" if view.is_my_turn else f"Enemy's turn {turn}"
    lines = [f"===== {whose} " + "=" * 30]
    if log_lines:
        lines += ["Since your last move:"] + ["  " + line for line in log_lines]
    lines += _side_lines("Enemy", enemy, hidden=True)
    lines += _side_lines("You", own, hidden=False)
    return "\n".join(lines)


def _side_lines(title: str, side: SideView, *, hidden: bool) -> list[str]:
    hero = side.hero
    armor = f" +{hero.armor} armor" if hero.armor else ""
    weapon = f", weapon {side.weapon.name} {side.weapon.attack}/{side.weapon.durability}" if side.weapon else ""
    health = f"{hero.health}/{hero.max_health}" if hero.health > 0 else f"0/{hero.max_health} (defeated)"
    lines = [f"{title}: hero {health}{armor}, attack {hero.attack}{weapon}; "
             f"mana {side.mana}/{side.max_mana}; deck {side.deck_size}; hand {side.hand_size}; "
             f"fatigue {side.fatigue}",
             "  board: " + (", ".join(f"[{i}] {_minion(c)}" for i, c in enumerate(side.battlefield)) or "(empty)")]
    if hidden:
        lines.append(f"  secrets: {side.secret_count} (hidden)")
        return lines
    lines.append("  secrets: " + (", ".join(c.name for c in side.secrets) or "(none)"))
    lines.append("  hand: " + (", ".join(f"[{i}] {_hand_card(c)}" + (" (put back)" if c.uid in side.marked else "")
                                         for i, c in enumerate(side.hand)) or "(empty)"))
    return lines


def _minion(card: CardView) -> str:
    tags = keyword_names(card.keywords) + (["sleeping"] if card.sleeping else []) + (["frozen"] if card.frozen else [])
    return f"{card.name} {card.attack}/{card.health}" + (f" ({', '.join(tags)})" if tags else "")


def _hand_card(card: CardView) -> str:
    stats = f" {card.attack}/{card.health}" if card.card_type.value == "minion" else ""
    if card.card_type.value == "weapon":
        stats = f" {card.attack}/{card.durability}"
    text = f" - {card.definition.text}" if card.definition.text else ""
    return f"{card.name} ({card.cost}){stats}{text}"
