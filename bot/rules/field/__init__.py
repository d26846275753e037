"""The field format (Lafayette Pinball League, catalog §4), configurable to other field leagues (UKPL)."""
