"""The game log in words ("You play Fireball on Chillwind Yeti", "Fireball deals 6 damage to ..."), per seat.

A :class:`LogWords` reads the engine's ``game.log`` (the reaction tree, one entry per performed action with
its depth) and writes one sentence per entry. Seen from a seat, it shows only what that seat may know: the seat's
player view supplies the rule (``GameView.log_words`` passes its own visibility test), a card the seat cannot
see now is "a card", and every card the enemy drew stays "a card" (the draw was hidden). Seen by a spectator
(``viewer=None``) every card is named. Turns are numbered per player: the first player's turns 1, 2, 3 are the
game's turns 1, 3, 5. Pure Python, like the rest of the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .cards import keyword_names
from .vocabulary import Zones

if TYPE_CHECKING:
    from .game import Game
    from .log import LogEntry
    from .state import Card


def player_turn(turn: int, seat: int) -> int:
    """The game's turn ``turn`` as the number of seat ``seat``'s own turn (seat 0 moves on odd turns)."""
    return (turn + 1 - seat) // 2


class LogWords:
    """Sentences for the log entries of ``game``, from seat ``viewer`` (0 or 1) or a spectator (None).

    Args:
        game: the game whose log is read; card names are looked up in its current state.
        viewer: the seat whose knowledge limits what is named, or None to name every card.
        names: how each seat is called from a spectator's point of view (a seat's view says "You" / "Enemy").
        can_see: for a seat, whether it may see a card now (required with a seat: use
            ``GameView(game, seat).log_words()``, which passes the view's own rule).
    """

    def __init__(self, game: Game, viewer: int | None, names: tuple[str, str] = ("Player 1", "Player 2"),
                 can_see: Callable[[Card], bool] | None = None) -> None:
        if viewer not in (0, 1, None):
            raise ValueError(f"viewer must be 0, 1 or None (spectator), got {viewer!r}")
        if viewer is not None and can_see is None:
            raise ValueError("a seat's LogWords needs can_see (GameView(game, seat).log_words() supplies it)")
        self._game = game
        self.viewer = viewer
        self.names = names
        self._can_see = can_see

    # --- public ----------------------------------------------------------------------------------

    def lines(self, start: int = 0, end: int | None = None) -> list[tuple[int, str]]:
        """(depth, sentence) for the log entries ``start:end``, in the reaction tree's order."""
        log = self._game.log
        stop = len(log) if end is None else end
        turns = self._turns_before(start)
        out = []
        for entry in log[start:stop]:
            if entry.kind == "TurnStart":
                turns[entry.action.player] += 1
            out.append((entry.depth, self.sentence(entry, turns[entry.action.player])))
        return out

    def text(self, start: int = 0, end: int | None = None) -> list[str]:
        """The same sentences as :meth:`lines`, indented two spaces per depth."""
        return [f"{'  ' * depth}{sentence}" for depth, sentence in self.lines(start, end)]

    def sentence(self, entry: LogEntry, own_turn: int) -> str:
        """One entry as a sentence; ``own_turn`` is the acting seat's turn number (for turn starts and ends)."""
        fields = entry.fields
        who = entry.action.player
        writer = _WRITERS.get(entry.kind)
        words = writer(self, who, fields, own_turn) if writer else self._generic(entry)
        if entry.cancelled:
            words += f" (cancelled: {entry.cancelled})"
        return words

    # --- naming ----------------------------------------------------------------------------------

    def subject(self, seat: int) -> str:
        """"You" / "Enemy" from a seat's view, else the seat's name."""
        if self.viewer is None:
            return self.names[seat]
        return "You" if seat == self.viewer else "Enemy"

    def verb(self, seat: int, plural: str, singular: str) -> str:
        """``plural`` after "You", ``singular`` after any other subject."""
        return plural if self.viewer is not None and seat == self.viewer else singular

    def possessive(self, seat: int, start: bool = False) -> str:
        """"your" / "the enemy's" from a seat's view (capitalized at the ``start`` of a sentence), else "<name>'s"."""
        if self.viewer is None:
            return f"{self.names[seat]}'s"
        words = "your" if seat == self.viewer else "the enemy's"
        return _cap(words) if start else words

    def card(self, uid: object, hidden: bool = False, known: bool = False) -> str:
        """A card's name if the viewer may see it now (or ``known``: saw it then), "a card" otherwise; heroes as
        "your hero" etc."""
        if not isinstance(uid, int) or isinstance(uid, bool):
            return "nothing" if uid is None else str(uid)
        found = self._game.state.find(uid)
        if hidden or found is None or (not known and self._can_see is not None and not self._can_see(found)):
            return "a card"
        if found.zone is Zones.HERO:
            return "your hero" if self.viewer == found.owner else (
                "the enemy hero" if self.viewer is not None else f"{self.names[found.owner]}'s hero")
        return found.definition.name

    def cards(self, uids: object, hidden: bool = False, known: bool = False) -> str:
        names = [self.card(uid, hidden, known) for uid in (uids if isinstance(uids, list) else [uids])]
        if len(names) <= 1:
            return names[0] if names else "nothing"
        return ", ".join(names[:-1]) + " and " + names[-1]

    def _turns_before(self, start: int) -> list[int]:
        """Each seat's turns started in the log before entry ``start``."""
        turns = [0, 0]
        for entry in self._game.log[:start]:
            if entry.kind == "TurnStart":
                turns[entry.action.player] += 1
        return turns

    def _generic(self, entry: LogEntry) -> str:
        body = ", ".join(f"{k}={v}" for k, v in entry.fields.items() if k != "player")
        return f"{entry.kind}({self.subject(entry.action.player)}{', ' if body else ''}{body})"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


_Writer = Callable[[LogWords, int, dict[str, Any], int], str]


def _start_game(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return "The game begins"


def _change_turn(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{w.subject(who)} {w.verb(who, 'end', 'ends')} the turn"


def _turn_end(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"End of {w.possessive(who)} turn {turn}"


def _turn_start(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{w.possessive(who, start=True)} turn {turn} begins"


def _draw(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    drawn = f.get("drawn") or []
    hidden = w.viewer is not None and who != w.viewer
    if not drawn:
        return f"{w.subject(who)} {w.verb(who, 'draw', 'draws')} nothing"
    count = f"{len(drawn)} cards: " if len(drawn) > 1 and not hidden else ""
    # the drawer saw what it drew, even a card it put back in the mulligan since
    what = f"{len(drawn)} cards" if hidden and len(drawn) > 1 else w.cards(drawn, hidden, known=not hidden)
    return f"{w.subject(who)} {w.verb(who, 'draw', 'draws')} {count}{what}"


def _mulligan_mark(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    own = w.viewer is None or who == w.viewer  # the deciding player knows its card, even once put back
    return f"{w.subject(who)} {w.verb(who, 'mark', 'marks')} {w.card(f.get('card'), not own, own)} to put back"


def _mulligan(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    returned, drawn = f.get("returned") or [], f.get("drawn") or []
    subject = w.subject(who)
    if not returned:
        return f"{subject} {w.verb(who, 'keep', 'keeps')} {'your' if subject == 'You' else 'the'} opening hand"
    if w.viewer is not None and who != w.viewer:
        count = f"{len(returned)} card" + ("s" if len(returned) > 1 else "")
        return f"{subject} puts back {count} and draws {len(drawn)} in their place"
    return (f"{subject} {w.verb(who, 'put', 'puts')} back {w.cards(returned, known=True)} and "
            f"{w.verb(who, 'draw', 'draws')} {w.cards(drawn, known=True)}")


def _overdraw(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{w.possessive(who, start=True)} hand is full: {w.cards(f.get('drawn') or [])} burns"


def _fatigue(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{w.subject(who)} {w.verb(who, 'have', 'has')} no cards left: fatigue"


def _play(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    target = f" on {w.card(f['target'])}" if f.get("target") is not None else ""
    return f"{w.subject(who)} {w.verb(who, 'play', 'plays')} {w.card(f.get('card'))}{target}"


def _hero_power(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    target = f" on {w.card(f['target'])}" if f.get("target") is not None else ""
    return f"{w.subject(who)} {w.verb(who, 'use', 'uses')} the hero power {w.card(f.get('card'))}{target}"


def _cast(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    target = f" on {w.card(f['target'])}" if f.get("target") is not None else ""
    return f"{w.card(f.get('card'))} is cast{target}"


def _secret(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    name = w.card(f.get("card"))
    return f"{w.subject(who)} {w.verb(who, 'place', 'places')} a secret" + (f" ({name})" if name != "a card" else "")


def _equip(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{w.subject(who)} {w.verb(who, 'equip', 'equips')} {w.card(f.get('card'))}"


def _summon(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{w.card(f.get('card'))} enters {w.possessive(who)} battlefield"


def _attack(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{_cap(w.card(f.get('attacker')))} attacks {w.card(f.get('defender'))}"


def _damage(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    parts = []
    for hit in f.get("hits") or []:
        source = _cap(w.card(hit.get("source"))) if hit.get("source") is not None else "Fatigue"
        parts.append(f"{source} deals {hit.get('amount')} damage to {w.card(hit.get('target'))}")
    return "; ".join(parts) or "No damage"


def _by(w: LogWords, f: dict[str, Any]) -> str:
    return _cap(w.card(f["source"])) if f.get("source") is not None else "An effect"


def _heal(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{_by(w, f)} restores {f.get('amount')} health to {w.cards(f.get('targets') or [])}"


def _buff(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{_by(w, f)} gives {w.cards(f.get('targets') or [])} {f.get('attack', 0):+d}/{f.get('health', 0):+d}"


def _keyword(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    keyword = f.get("keyword")
    words = ", ".join(keyword_names(keyword)) if isinstance(keyword, int) else str(keyword)
    return f"{_by(w, f)} gives {w.cards(f.get('targets') or [])} {words or 'no keyword'}"


def _freeze(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{_by(w, f)} freezes {w.cards(f.get('targets') or [])}"


def _destroy(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{_by(w, f)} destroys {w.cards(f.get('targets') or [])}"


def _armor(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{_cap(w.card(f.get('hero')))} gains {f.get('amount')} armor"


def _mana(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{w.subject(who)} {w.verb(who, 'gain', 'gains')} {f.get('amount')} mana"


def _trigger(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    ability = str(f.get("ability", "")).replace("_", " ").replace(":", ": ")
    target = f" on {w.card(f['target'])}" if f.get("target") is not None else ""
    fizzled = " but fizzles (its target is gone)" if f.get("fizzled") else ""
    return f"{w.card(f.get('card'))} triggers ({ability}){target}{fizzled}"


def _add_to_hand(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    return f"{w.subject(who)} {w.verb(who, 'get', 'gets')} {w.card(f.get('card'))}"


def _reap(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    cards = f.get("cards") or []
    return f"{w.cards(cards)} {'dies' if len(cards) == 1 else 'die'}"


def _game_over(w: LogWords, who: int, f: dict[str, Any], turn: int) -> str:
    winner = f.get("winner")
    if isinstance(winner, int) and winner in (0, 1):
        subject = w.subject(winner)
        return f"Game over: {subject.lower() if subject == 'You' else subject} {w.verb(winner, 'win', 'wins')}"
    if f.get("result") == "turn_limit":
        return "Game over: the turn limit is reached, a draw"
    return "Game over: a draw"


_WRITERS: dict[str, _Writer] = {
    "StartGame": _start_game, "ChangeTurn": _change_turn, "TurnEnd": _turn_end, "TurnStart": _turn_start,
    "DrawCards": _draw, "Overdraw": _overdraw, "Fatigue": _fatigue, "PlayCard": _play, "UseHeroPower": _hero_power,
    "CastSpell": _cast,
    "PlaceSecret": _secret, "EquipWeapon": _equip, "Summon": _summon, "Attack": _attack, "Damage": _damage,
    "Heal": _heal, "Buff": _buff, "GiveKeyword": _keyword, "Freeze": _freeze, "Destroy": _destroy,
    "GainArmor": _armor, "GainMana": _mana, "TriggerAbility": _trigger, "AddToHand": _add_to_hand, "Reap": _reap,
    "GameOver": _game_over, "MulliganMark": _mulligan_mark, "Mulligan": _mulligan,
}

