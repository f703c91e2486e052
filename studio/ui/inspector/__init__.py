"""The inspector: instruction editor, takes side by side, state, take details, notes."""
