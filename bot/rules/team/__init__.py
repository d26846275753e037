"""The team format (Pinball NYC sheet): pure rules. Rule IDs are TEAM-* in shared/rules/CATALOG.md."""
