"""Remi JSON API."""
