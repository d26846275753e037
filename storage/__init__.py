"""Storage: tables, database setup, migrations.

Importing the package registers every table on SQLModel's metadata, so migrations, tests and the bot
all see the same schema whichever module they import first.
"""

from storage import discipline, field, ladder, matches, models, nights, posts, results

__all__ = ["discipline", "field", "ladder", "matches", "models", "nights", "posts", "results"]
