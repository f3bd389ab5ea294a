"""Comparison tests (比较检验, 西瓜书 §2.4). To be implemented (issue: comparison tests)."""

__all__: list[str] = []
