"""A team's IT-desk agent (its own package), the subject of the mutation tests."""
