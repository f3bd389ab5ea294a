"""Explorers for evallib.biasvar (filled by its issue)."""

__all__: list[str] = []
