"""The env core: games set up, stepped by action id, observed, masked and scored; every front-end adapts it.

An :class:`EnvCore` is built once per configuration (rules, card set, decks, illegal-action mode) and owns:

- rules, card set and deck resolution (:mod:`ccg_env.engine.game_setup`) and the deck pick from a seed;
- starting a game (:meth:`~EnvCore.new_match`, :meth:`~EnvCore.new_game`: a seed, an explicit deck pair or a
  described board);
- checking that an action is in the action space (:meth:`~EnvCore.action_id`: a ``ValueError`` otherwise);
- the one step (:meth:`~EnvCore.step`): an action id played for the seat to move in a :class:`Match`, returning a
  :class:`Step` (both seats' rewards, terminated, truncated, outcome, who moves next); what a masked-out id does
  (:attr:`~EnvCore.illegal_action`), the end of the game and the rewards are decided there and nowhere else;
- the other seat's moves until a given seat is to move (:meth:`~EnvCore.play_until`), the one opponent and play loop;
- the legal ids and the mask (:meth:`~EnvCore.legal_ids`, :meth:`~EnvCore.mask_writer`), the observation
  (:meth:`~EnvCore.observation_writer`);
- in draft mode (``mode="draft"``), games that start with the engine's draft (``Game.new_draft``): its pick choices
  are the last range of the action layout and its observation pieces follow the battle's
  (:attr:`~EnvCore.observation_encoder`, a :class:`~ccg_env.env.draft_observation.DraftEncoder`), so the step, the
  mask and the observation are the same calls in both phases.

The PettingZoo AEC env, the Gymnasium duel env, the batched vector env, the SB3 VecEnv, league opponents and
the arena's match runner are adapters over it: none of them builds a mask, picks decks, handles an illegal action
or scores a game itself.

Illegal actions (``illegal_action``, the same option and default in every front-end; the one statement of the
contract, which the front-ends' documentation links here):

- an action outside the action space (not an integer id, a bool, a float, a number out of range) always raises
  ``ValueError`` and changes nothing;
- an in-range id that the mask forbids: ``"forfeit"`` (default) ends the game, -1 to the offender and 0 to the
  other seat (as PettingZoo's ``TerminateIllegalWrapper``), outcome ``"illegal_action"``, the engine game left as
  it was (a forfeit in the draft ends the game before any battle); ``"raise"`` raises ``ValueError`` naming the
  id and changes nothing; ``"ignore"`` changes nothing and pays the offender ``illegal_reward``, who moves again.

Rewards: +1 to the winner and -1 to the loser, 0 to both for a draw; 0 to both for a truncation (the turn limit or
a looping card stopped by the engine, :data:`~ccg_env.engine.state.TRUNCATING_RESULTS`), which sets ``truncated``
rather than ``terminated``; 0 on every other step.
"""

from __future__ import annotations

import math
import operator
from pathlib import Path
from typing import Any, Callable, Final, Sequence

import numpy as np

from ..engine import CardSet, Choice, Deck, Game, IllegalActionError, Result, Rules
from ..engine.draft import DraftView, as_hero
from ..engine.view import GameView
from ..engine.state import TRUNCATING_RESULTS  # the turn limit and a stopped loop: one list, the engine's
from ..engine.game_setup import (RANDOM_DECKS, packaged_deck_pool, pick_decks, resolve_cards, resolve_deck_pair,
                                 resolve_rules)
from .codec import ActionCodec, ActionLayout
from .draft_observation import DraftEncoder, DraftWriter
from .masks import MaskWriter, legal_by_id, new_mask
from .observation import ObservationEncoder, ObservationWriter

#: What an in-range but masked-out action id does (see the module documentation); ``"lose"`` is an old name
#: of ``"forfeit"``.
ILLEGAL_ACTION_MODES: Final = ("forfeit", "raise", "ignore")
_MODE_ALIASES: Final = {"lose": "forfeit"}
#: Reward of the seat that forfeits by an illegal action (the other seat gets 0).
FORFEIT_REWARD: Final = -1.0
#: The outcome name of a game lost by an illegal action.
FORFEIT: Final = "illegal_action"
#: What an env plays: ``"duel"`` (a battle with given decks) or ``"draft"`` (a draft of both decks, then the battle).
MODES: Final = ("duel", "draft")


def check_mode(mode: Any) -> str:
    """``mode`` if it is one of :data:`MODES`, else a ValueError naming the allowed ones."""
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode: expected one of {MODES}, got {mode!r}")
    return mode


def is_truncation(result: Result | None) -> bool:
    """Whether a game that ended with ``result`` was truncated (cut short) rather than terminated."""
    return result in TRUNCATING_RESULTS


def seat_rewards(game: Game, forfeit: int | None = None) -> tuple[float, float]:
    """Both seats' final rewards: +1 / -1 for a win, 0 for a draw or a truncation, -1 / 0 for a forfeit."""
    if forfeit is not None:
        return forfeit_rewards(forfeit)
    winner = game.state.winner
    if game.state.result is None or winner is None:
        return 0.0, 0.0
    return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


def forfeit_rewards(seat: int) -> tuple[float, float]:
    """Both seats' rewards when ``seat`` forfeits: -1 to it, 0 to the other seat."""
    return (FORFEIT_REWARD, 0.0) if seat == 0 else (0.0, FORFEIT_REWARD)


class Match:
    """One game as the core steps it: the engine game, its seed, the seat that forfeited (None) and the legal ids
    of the position once listed (None until then)."""

    __slots__ = ("game", "seed", "forfeit", "legal")

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.forfeit: int | None = None
        self.legal: dict[int, Choice] | None = None

    @property
    def is_over(self) -> bool:
        """Whether the game ended (a forfeit included)."""
        return self.forfeit is not None or self.game.state.result is not None

    @property
    def current(self) -> int:
        """The seat to move (the one picking in a draft), -1 once the game is over."""
        return -1 if self.is_over else self.game.state.current


class Step:
    """What one step did, as every front-end reads it (OpenSpiel's ``TimeStep``, pgx's ``State`` after a step).

    Attributes:
        rewards: both seats' rewards of this step, seat 0 first.
        terminated: the game ended by a win, a draw or a forfeit.
        truncated: the game was cut short (the turn limit, a stopped loop).
        result: None while the game goes on, else ``"win"``, ``"draw"``, ``"turn_limit"``, ``"loop"`` or
            ``"illegal_action"``.
        winner: the winning seat, or None.
        current: the seat to move next, -1 once the game is over.
        illegal: the action was masked out (ignored or forfeited).
    """

    __slots__ = ("rewards", "terminated", "truncated", "result", "winner", "current", "illegal")

    def __init__(self, rewards: tuple[float, float], terminated: bool, truncated: bool, result: str | None,
                 winner: int | None, current: int, illegal: bool = False) -> None:
        self.rewards = rewards
        self.terminated = terminated
        self.truncated = truncated
        self.result = result
        self.winner = winner
        self.current = current
        self.illegal = illegal

    def outcome(self, seat: int) -> str | None:
        """How the game ended for ``seat``: "win", "loss", "draw", "turn_limit", "loop", "illegal_action" (either
        seat forfeited) or None while it goes on."""
        winner = self.winner
        if winner is not None:
            return "win" if winner == seat else "loss"
        return self.result

    def __repr__(self) -> str:
        return (f"Step(rewards={self.rewards}, terminated={self.terminated}, truncated={self.truncated}, "
                f"result={self.result!r}, winner={self.winner}, current={self.current}, illegal={self.illegal})")


#: The Step of a position where the game goes on, by the seat to move: shared, as no one changes a Step.
_GOING_ON: Final = (Step((0.0, 0.0), False, False, None, None, 0), Step((0.0, 0.0), False, False, None, None, 1))


def check_illegal_action_mode(mode: Any) -> str:
    """The canonical name of an ``illegal_action`` mode, or a ValueError naming the allowed ones."""
    mode = _MODE_ALIASES.get(mode, mode) if isinstance(mode, str) else mode
    if mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action: expected one of {ILLEGAL_ACTION_MODES}, got {mode!r}")
    return mode


def check_illegal_reward(value: Any) -> float:
    """``illegal_reward`` as a float, or a ValueError: a finite number is expected."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value):
        raise ValueError(f"illegal_reward: expected a finite number, got {value!r}")
    return float(value)


def check_flag(value: Any, name: str) -> bool:
    """A yes/no setting as a bool (True, False, 1 or 0), or a ValueError naming the setting."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, int) and value in (0, 1)):
        return bool(value)
    raise ValueError(f"{name}: expected True or False, got {value!r}")


def _is_pair(value: Any) -> bool:
    """Whether ``value`` holds two items (two decks, two heroes) rather than one name, path or deck."""
    if isinstance(value, (str, bytes, Path, Deck)):
        return False
    try:
        return len(value) == 2
    except TypeError:  # no length: a number, a generator...
        return False


class EnvCore:
    """One env configuration: rules, cards, decks, codec, encoder and the illegal-action mode.

    Args:
        rules: a ``Rules`` object, a rules YAML path or None (the packaged default).
        cards: a ``CardSet``, a card YAML path, a list of paths or None (the packaged cards).
        decks: two decks (packaged names, YAML paths or ``Deck`` objects), None (the defaults), or ``"random"``:
            each seat gets a packaged deck drawn with the game's seed.
        turn_limit: overrides the rules' turn limit.
        illegal_action: ``"forfeit"`` (default), ``"raise"`` or ``"ignore"`` (see the module documentation).
        illegal_reward: the reward of an ignored illegal action.
        log: keep the engine's action log in the games started here.
        mode: ``"duel"`` (default) or ``"draft"``: each game starts with a draft of both decks (``decks`` is then
            not used), the action layout gains the draft-pick range and the observation the draft pieces.
        heroes: draft mode: the two seats' hero classes, or None to draw each from the draft's seed.
        card_features: every card slot also carries the card's feature row, and the observation gains the card
            feature pieces (:mod:`ccg_env.env.observation`); a card over the feature bound is refused here.
        card_ids: card slots carry the card-id one-hot (``False`` needs ``card_features``; duel mode only).
    """

    __slots__ = ("rules", "cards", "decks", "deck_pool", "illegal_action", "illegal_reward", "log", "codec",
                 "encoder", "size", "mode", "heroes", "draft_encoder")

    def __init__(self, rules: Rules | str | Path | None = None, cards: Any = None, decks: Any = None,
                 turn_limit: Any = None, illegal_action: Any = "forfeit", illegal_reward: Any = -0.1,
                 log: Any = False, mode: Any = "duel", heroes: Any = None, card_features: Any = False,
                 card_ids: Any = True) -> None:
        # The settings a user types are annotated Any: the compiled build would refuse a wrong type with a bare
        # TypeError ("str object expected; got list") before the checks below, which name the setting.
        self.mode = check_mode(mode)
        self.illegal_action = check_illegal_action_mode(illegal_action)
        self.illegal_reward = check_illegal_reward(illegal_reward)
        self.rules: Rules = resolve_rules(rules, turn_limit)
        self.cards: CardSet = resolve_cards(cards)
        #: the decks of every game (None when drawn per game from ``deck_pool``)
        self.decks: tuple[Deck, Deck] | None = None
        self.deck_pool: tuple[Deck, ...] = ()
        if self.mode == "draft":  # every game drafts its decks (a game's own decks option still skips the draft)
            decks = None
        if isinstance(decks, str) and decks == RANDOM_DECKS:
            self.deck_pool = packaged_deck_pool(self.cards, self.rules)
        else:
            if decks is not None and not _is_pair(decks):
                raise ValueError(f"decks: expected two decks (names, paths or Deck objects) or 'random', "
                                 f"got {decks!r}")
            self.decks = resolve_deck_pair(decks, self.cards, self.rules)
        self.log = check_flag(log, "log")
        drafting = self.mode == "draft"
        self.codec = ActionCodec(ActionLayout.for_rules(self.rules, draft=drafting))
        #: the battle observation's encoder (the whole observation in duel mode, its first part in draft mode)
        card_ids = check_flag(card_ids, "card_ids")
        if drafting and not card_ids:
            raise ValueError("card_ids=False: the draft mode's offer and deck pieces are card-id one-hots; "
                             "use card_ids=True with mode='draft'")
        self.encoder = ObservationEncoder(self.rules, self.cards, card_features=check_flag(card_features,
                                                                                          "card_features"),
                                          card_ids=card_ids)
        #: draft mode: the encoder of the whole observation, battle part then draft pieces (else None)
        self.draft_encoder: DraftEncoder | None = (DraftEncoder(self.encoder, self.rules)
                                                   if drafting else None)
        #: draft mode: the seats' hero classes (None: drawn per draft)
        self.heroes: tuple[Any, ...] | None = None
        if heroes is not None:
            if not _is_pair(heroes):
                raise ValueError(f"heroes: expected two hero classes (one per seat) or None, got {heroes!r}")
            self.heroes = (as_hero(heroes[0]), as_hero(heroes[1]))
        #: the number of action ids (``Discrete(size)``)
        self.size: int = self.codec.layout.size

    @property
    def observation_encoder(self) -> ObservationEncoder | DraftEncoder:
        """The encoder of the whole observation vector (its ``size``, ``space``, ``pieces``, ``view``)."""
        return self.draft_encoder if self.draft_encoder is not None else self.encoder

    # --- games ---------------------------------------------------------------------------------

    def decks_for(self, seed: int) -> tuple[Deck, Deck]:
        """The two decks of the game with this seed: the configured pair, or a draw from the packaged pool."""
        if self.decks is not None:
            return self.decks
        return pick_decks(self.deck_pool, seed)

    def new_game(self, seed: int, *, decks: Sequence[Any] | None = None, scenario: Any = None,
                 log: bool | None = None) -> Game:
        """Start a game with this seed: with ``decks`` (a pair of specs) if given, else in draft mode with its
        draft (``Game.new_draft``, the battle dealt with the same seed) or :meth:`decks_for`; or the board
        ``scenario`` describes (:mod:`ccg_env.engine.scenario`)."""
        keep_log = self.log if log is None else log
        if scenario is not None:
            return Game.from_scenario(scenario, seed, rules=self.rules, cards=self.cards, log=keep_log)
        if decks is None and self.mode == "draft":
            return Game.new_draft(seed, rules=self.rules, cards=self.cards, hero_classes=self.heroes, log=keep_log)
        pair = self.decks_for(seed) if decks is None else resolve_deck_pair(decks, self.cards, self.rules)
        return Game.new(seed, decks=pair, rules=self.rules, cards=self.cards, log=keep_log)

    def new_match(self, seed: int, *, decks: Sequence[Any] | None = None, scenario: Any = None,
                  log: bool | None = None) -> Match:
        """Start a match over :meth:`new_game`."""
        return Match(self.new_game(seed, decks=decks, scenario=scenario, log=log), seed)

    def view(self, game: Game, seat: int) -> GameView | DraftView:
        """What an agent deciding for ``seat`` is shown: a ``GameView``, or in a draft the seat's ``DraftView``."""
        draft = game.draft
        if draft is not None and game.in_draft:
            return DraftView.of(draft, seat, self.codec.layout.draft_offset)
        return GameView(game, seat, self.codec)

    # --- actions -------------------------------------------------------------------------------

    def action_id(self, action: Any) -> int:
        """Return ``action`` as a Python int if it is in the action space ``Discrete(size)``.

        Accepted: a Python int or a NumPy integer (a 0-d integer array too). Refused with ``ValueError``, naming
        the value: a bool, a float (``3.0`` included), text, None, any other object, and ids out of range.
        """
        if type(action) is int and 0 <= action < self.size:  # the common case first
            return action
        if isinstance(action, (bool, np.bool_)):
            raise ValueError(f"action {action!r}: a bool is not an action id; expected an integer in "
                             f"0..{self.size - 1}")
        if isinstance(action, (int, np.integer)):
            value = operator.index(action)
        elif isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            value = int(action)
        else:
            raise ValueError(f"action {action!r}: expected an integer action id in 0..{self.size - 1}, "
                             f"got {type(action).__name__}")
        if not 0 <= value < self.size:
            raise ValueError(f"action {value} is out of the action space: expected an integer in "
                             f"0..{self.size - 1}")
        return value

    def action_batch(self, actions: Any, count: int) -> list[int]:
        """Check a batch of ``count`` actions (one per env) before any is played; return them as Python ints.

        Raises:
            ValueError: the batch is not of shape ``(count,)``, or an entry is outside the action space (as
                :meth:`action_id`), naming its index.
        """
        if isinstance(actions, (list, tuple)) and len(actions) == count:  # each entry checked: no silent casts
            return [self._entry(value, slot) for slot, value in enumerate(actions)]
        array = np.asarray(actions)
        if array.shape != (count,):
            raise ValueError(f"actions: expected an array of shape ({count},), one action id per env; "
                             f"got shape {array.shape}")
        if array.dtype.kind in "iu":
            bad = np.flatnonzero((array < 0) | (array >= self.size))
            if bad.size:
                slot = int(bad[0])
                raise ValueError(f"actions[{slot}]: action {int(array[slot])} is out of the action space: "
                                 f"expected an integer in 0..{self.size - 1}")
            return array.tolist()
        return [self._entry(value, slot) for slot, value in enumerate(array.tolist())]

    def _entry(self, value: Any, slot: int) -> int:
        try:
            return self.action_id(value)
        except ValueError as error:
            raise ValueError(f"actions[{slot}]: {error}") from None

    def legal(self, game: Game) -> dict[int, Choice]:
        """Action id -> legal choice of the player on turn (empty once the game is over)."""
        return legal_by_id(game, self.codec)

    def play(self, game: Game, action_id: int, legal: dict[int, Choice] | None = None) -> bool:
        """Apply the choice an in-range id stands for, if legal; return False (state unchanged) if it is not.

        ``legal``: the position's :meth:`legal` map when the caller has it (saves decoding and validating).
        """
        if legal is not None:
            choice = legal.get(action_id)
            if choice is None:
                return False
            game.apply(choice)
            return True
        decoded = self.codec.decode(game, action_id)
        if decoded is None:
            return False
        try:
            game.apply(decoded)
        except IllegalActionError:
            return False
        return True

    # --- the step ------------------------------------------------------------------------------

    def legal_ids(self, match: Match) -> dict[int, Choice]:
        """Action id -> the legal choice it plays for the seat to move; empty once the game is over. Listed once
        per position."""
        legal = match.legal
        if legal is None:
            legal = match.legal = {} if match.forfeit is not None else self.legal(match.game)
        return legal

    def step(self, match: Match, action_id: int, who: str = "player") -> Step:
        """Play an in-range action id (see :meth:`action_id`) for the seat to move; a masked-out id does what
        ``illegal_action`` says (the module documentation). ``who`` names the mover in a refusal's message.

        Raises:
            ValueError: a masked-out id in ``"raise"`` mode (nothing changes).
            RuntimeError: the game is over.
        """
        if match.is_over:
            raise RuntimeError(f"{who}: the game is over; start a new one (reset) before stepping again")
        move = self.legal_ids(match).get(action_id)
        if move is None:
            return self._illegal(match, action_id, who)
        match.legal = None
        match.game.apply(move)
        return self.position(match)

    def play_until(self, match: Match, seat: int, choose: Callable[[Game, int], Choice | None]) -> Step:
        """The seats other than ``seat`` move until ``seat`` is to move or the game is over (``seat=-1``: to the
        end); return the position's :class:`Step`. The one opponent and play loop of every front-end.

        Args:
            choose: ``choose(game, seat to move)``: a legal engine choice (a pick in a draft), or None to stop
                there (a chooser that decides later, in a batch).
        """
        game = match.game
        while game.state.result is None and game.state.current != seat:  # state: replaced when a draft ends
            choice = choose(game, game.state.current)
            if choice is None:
                break
            game.apply(choice)
            match.legal = None
        return self.position(match)

    def apply(self, match: Match, choice: Choice) -> None:
        """Apply a legal engine choice made outside :meth:`step` (an opponent's) to the match's game."""
        match.game.apply(choice)
        match.legal = None

    def position(self, match: Match) -> Step:
        """The :class:`Step` of the match's position: who moves next, or the end of the game and its rewards."""
        state = match.game.state
        result = state.result
        if result is None:
            return _GOING_ON[state.current]
        truncated = result in TRUNCATING_RESULTS
        return Step(seat_rewards(match.game), not truncated, truncated, result.value, state.winner, -1)

    def _illegal(self, match: Match, action_id: int, who: str) -> Step:
        """A masked-out id in range: raise, ignore or forfeit, as ``illegal_action`` says."""
        mode = self.illegal_action
        if mode == "raise":
            raise ValueError(self.refusal(who, match.game, action_id))
        seat = match.current
        if mode == "ignore":
            paid = self.illegal_reward
            return Step((paid, 0.0) if seat == 0 else (0.0, paid), False, False, None, None, seat, True)
        match.forfeit = seat
        match.legal = None
        return Step(forfeit_rewards(seat), True, False, FORFEIT, None, -1, True)

    def refusal(self, who: str, game: Game, action_id: int) -> str:
        """The message of the ``ValueError`` raised for a masked-out id in ``"raise"`` mode."""
        described = self.codec.layout.describe(action_id)
        if game.in_draft:
            return (f"{who}: action {action_id} ({described}) is not a legal draft pick now (legal ids: "
                    f"{sorted(self.legal(game))}); pick an action with action_mask == 1")
        decoded = self.codec.decode(game, action_id)
        if decoded is None:
            return (f"{who}: action {action_id} ({described}) names an empty slot; pick an action with "
                    f"action_mask == 1")
        return f"{who}: action {action_id} ({described}) is illegal now; pick an action with action_mask == 1"

    # --- observation and mask ------------------------------------------------------------------

    def mask_writer(self, out: np.ndarray) -> MaskWriter:
        """A writer of int8 masks into ``out`` (shape ``(size,)``)."""
        return MaskWriter(out)

    def mask(self, legal: dict[int, Choice] | Sequence[int]) -> np.ndarray:
        """A fresh int8 mask with ones at the ids of ``legal``."""
        return new_mask(legal, self.size)

    def observation_writer(self, out: np.ndarray, *, normalize: bool = False,
                           exclusive: bool = False) -> ObservationWriter | DraftWriter:
        """A writer of whole observations (:attr:`observation_encoder`'s) into ``out``, in every phase of a game
        (see :meth:`ObservationEncoder.writer`)."""
        return self.observation_encoder.writer(out, normalize=normalize, exclusive=exclusive)
