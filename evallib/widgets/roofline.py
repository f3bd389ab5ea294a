"""Explorers for evallib.roofline (filled by its issue)."""

__all__: list[str] = []
