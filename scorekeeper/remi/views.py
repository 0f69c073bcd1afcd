"""Remi deal checker views."""
