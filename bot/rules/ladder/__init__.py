"""The ladder format (Jersey Pinball Association sheet): pure rules. Rule IDs are LADDER-* in CATALOG.md."""
