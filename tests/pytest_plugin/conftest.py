"""The LangSmith look-alike, for the plugin's LangSmith tests."""

from tests.langsmith.conftest import fake_langsmith

__all__ = ["fake_langsmith"]
