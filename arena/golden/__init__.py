"""Golden datasets: cases, expectations, loading and validation."""

from arena.golden._conversation import (
    MAX_TURNS,
    Conversation,
    ReplyCheck,
    ScriptedTurn,
    SimulatedUser,
    TurnExpect,
)
from arena.golden._loader import case_hash, dataset_hash, load_dataset
from arena.golden._models import (
    Behavior,
    Category,
    ContainsItem,
    Difficulty,
    ExpectedFile,
    GoldenCase,
    GoldenDataset,
    Tier,
)

__all__ = [
    "MAX_TURNS",
    "Behavior",
    "Category",
    "ContainsItem",
    "Conversation",
    "Difficulty",
    "ExpectedFile",
    "GoldenCase",
    "GoldenDataset",
    "ReplyCheck",
    "ScriptedTurn",
    "SimulatedUser",
    "Tier",
    "TurnExpect",
    "case_hash",
    "dataset_hash",
    "load_dataset",
]
