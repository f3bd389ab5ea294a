"""Explorers for evallib.compare (filled by its issue)."""

__all__: list[str] = []
