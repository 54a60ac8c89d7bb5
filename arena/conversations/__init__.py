"""Conversation cases at run time: the user's side of a dialogue, scripted or simulated."""

from arena.conversations._make import user_player
from arena.conversations._player import UserMove, UserPlayer
from arena.conversations._scripted import ScriptedPlayer

__all__ = [
    "ScriptedPlayer",
    "UserMove",
    "UserPlayer",
    "user_player",
]
