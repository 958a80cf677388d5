"""The game log: every performed (or cancelled) action with its depth in the reaction tree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .actions import GameAction


class LogEntry(NamedTuple):
    """One node of the reaction tree, in the order it was resolved (depth-first)."""

    depth: int
    action: GameAction
    cancelled: str | None = None  # the validator's reason when the action was refused

    @property
    def kind(self) -> str:
        return type(self.action).__name__

    @property
    def fields(self) -> dict[str, Any]:
        return self.action.describe()

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        out = {"depth": self.depth, "kind": self.kind, **self.fields}
        if self.cancelled:
            out["cancelled"] = self.cancelled
        return out

    def __str__(self) -> str:
        body = ", ".join(f"{k}={v}" for k, v in self.fields.items())
        note = f"  [cancelled: {self.cancelled}]" if self.cancelled else ""
        return f"{'  ' * self.depth}{self.kind}({body}){note}"


def format_log(entries: list[LogEntry]) -> str:
    """Render log entries as an indented reaction tree."""
    return "\n".join(str(e) for e in entries)
