"""Text from files made safe to write to a terminal: control characters are shown as escapes, never sent.

A card or seat name can hold escape sequences that retitle the window, clear the screen or move the cursor; text
read from a file passes through :func:`terminal_safe` (or a :class:`TerminalSafeStream`) on its way out.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

#: C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides that reorder shown text.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """``text`` with every control character but tab and newline written as an escape (``\\x1b``, ``\\u202e``)."""
    return _CONTROL.sub(lambda match: _escape(match.group()), text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


class TerminalSafeStream:
    """A text stream that writes through :func:`terminal_safe`; everything else is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(terminal_safe(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
