"""Storage: tables, database setup, migrations.

Importing the package registers every table on SQLModel's metadata, so migrations, tests and the bot
all see the same schema whichever module they import first.
"""

from storage import discipline, matches, models

__all__ = ["discipline", "matches", "models"]
