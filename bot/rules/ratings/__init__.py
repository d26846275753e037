"""Player ratings: a Plackett–Luce rating over every machine game, and the metrics that check its predictions.

Pure: games come in as finishing orders, ratings and figures go out. See `docs/ratings.md`.
"""
