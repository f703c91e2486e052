"""Dialogs: export, settings, keyboard cheat sheet, closing with jobs in the queue."""
