"""Conversation cases at run time: the user's side of a dialogue, scripted or simulated."""

from arena.conversations._detect import STOP_TOKEN, simulator_error
from arena.conversations._make import user_player
from arena.conversations._player import UserMove, UserPlayer
from arena.conversations._scripted import ScriptedPlayer
from arena.conversations._seed import simulator_seed
from arena.conversations._simulated import PROMPT_VERSION, SimulatedUserPlayer

__all__ = [
    "PROMPT_VERSION",
    "STOP_TOKEN",
    "ScriptedPlayer",
    "SimulatedUserPlayer",
    "UserMove",
    "UserPlayer",
    "simulator_error",
    "simulator_seed",
    "user_player",
]
