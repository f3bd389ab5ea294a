"""Explorers for evallib.curves (filled by its issue)."""

__all__: list[str] = []
