"""Conversation cases at run time: the user's side of a dialogue, scripted or simulated."""

from arena.conversations._player import UserMove, UserPlayer

__all__ = ["UserMove", "UserPlayer"]
