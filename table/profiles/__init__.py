"""Shipped profiles (game geometry, decks, layouts): data files a user may replace."""
