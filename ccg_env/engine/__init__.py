"""The pure-Python rules engine: state, actions, the action system, systems, targeting and card data."""

from .cards import Ability, CardDef, CardSet, default_cards, load_cards
from .choices import Choice, ChoiceKind
from .decks import Deck, load_deck
from .errors import DataError, EngineBusyError, EngineError, GameOverError, IllegalActionError, StateError
from .game import Game
from .rules import Rules
from .state import Card, GameState, Player, Result
from .targeting import Mark, Target, auto_target, candidates
from .vocabulary import Alliance, CardType, Keyword, Zones

__all__ = [
    "Ability", "Alliance", "Card", "CardDef", "CardSet", "CardType", "Choice", "ChoiceKind", "DataError", "Deck",
    "EngineBusyError", "EngineError", "Game", "GameOverError", "GameState", "IllegalActionError", "Keyword", "Mark",
    "Player", "Result", "Rules", "StateError", "Target", "Zones", "auto_target", "candidates", "default_cards",
    "load_cards", "load_deck",
]
