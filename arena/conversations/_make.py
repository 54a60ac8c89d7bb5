"""The user player of a conversation case: its script, or its simulated user on a model."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import TYPE_CHECKING, Any

from arena.conversations import _seed
from arena.conversations._player import UserPlayer
from arena.conversations._scripted import ScriptedPlayer
from arena.errors import InputError
from arena.golden import GoldenCase

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

SIMULATED_MODULE = "arena.conversations._simulated"


def user_player(case: GoldenCase, *, repeat: int, user_model: BaseChatModel | None) -> UserPlayer:
    """Who speaks for the user after ``case.input``.

    A scripted case gets a :class:`ScriptedPlayer`; a simulated one a simulated user played
    by ``user_model`` (already cached), seeded by the case and the repeat only, so every
    variant meets the same user given the same replies.

    Raises:
        ValueError: ``case`` is not a conversation case.
        InputError: a simulated case without a user model, or without the simulated user's
            module in this installation.
    """
    conversation = case.conversation
    if conversation is None:
        raise ValueError(f"case {case.id} is not a conversation case")
    if conversation.user is None:
        return ScriptedPlayer(conversation)
    if user_model is None:
        raise InputError(f"case {case.id}: a simulated user needs a model to play it")
    simulated = _simulated_module(case.id)
    seed = _seed.simulator_seed(case.id, repeat)
    player: UserPlayer = simulated.SimulatedUserPlayer(
        conversation.user, user_model, case_input=case.input, seed=seed
    )
    return player


def _simulated_module(case_id: str) -> Any:
    try:
        return importlib.import_module(SIMULATED_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != SIMULATED_MODULE:
            raise
        raise InputError(
            f"case {case_id}: simulated users are not available in this installation "
            f"({SIMULATED_MODULE} is missing); use scripted turns",
            field="conversation.user",
        ) from None


def simulated_users_available() -> bool:
    """True when this installation can play simulated users."""
    return SIMULATED_MODULE in sys.modules or importlib.util.find_spec(SIMULATED_MODULE) is not None
