"""The rules engine: state, actions, the action system, systems, targeting and card data.

Written in plain Python; its hot modules run compiled by mypyc where the install could build them
(see :mod:`ccg_env.engine.native`, and ``ENGINE_BUILD`` for which build is running).
"""

from .native import allow_slotted_subclasses, select_build

#: whether the compiled modules run, and a one-line description of the build ("compiled (mypyc ...)", ...)
COMPILED, ENGINE_BUILD = select_build()  # decided before any other engine module is imported

from .actions import GameAction
from .cards import Ability, CardDef, CardSet, default_cards, load_cards
from .choices import Choice, ChoiceKind
from .decks import Deck, load_deck
from .errors import DataError, EngineBusyError, EngineError, GameOverError, IllegalActionError, StateError
from .game import Game
from .rules import Rules
from .state import Card, GameState, Player, Result
from .targeting import Mark, Target, auto_target, candidates
from .vocabulary import Alliance, CardClass, CardType, Keyword, Zones

__all__ = [
    "Ability", "Alliance", "Card", "CardClass", "CardDef", "CardSet", "CardType", "Choice", "ChoiceKind", "DataError", "Deck",
    "EngineBusyError", "EngineError", "Game", "GameOverError", "GameState", "IllegalActionError", "Keyword", "Mark",
    "Player", "Result", "Rules", "StateError", "Target", "Zones", "auto_target", "candidates", "default_cards",
    "load_cards", "load_deck", "COMPILED", "ENGINE_BUILD",
]

if COMPILED:
    allow_slotted_subclasses(GameAction)
