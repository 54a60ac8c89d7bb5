"""A stored run evaluated: its golden scores per variant, and the leaderboard of ratings beside
them."""
