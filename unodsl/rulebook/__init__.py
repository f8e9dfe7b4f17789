"""A variant as a rulebook in English, written from its compiled effects and rulings."""
