"""The database's schema revisions (Alembic): ``env.py`` and ``versions/``, shipped in the
package so an installed wheel upgrades a database. How to add one: docs/storage.md, "Adding a
table or a column"."""
