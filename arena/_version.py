"""The package's version: bumped with every release that changes stored data or verdicts
(CHANGELOG.md says what changed). ``arena --version`` prints it; a database records it as the
release that created or upgraded its schema."""

__version__ = "0.2.0"
