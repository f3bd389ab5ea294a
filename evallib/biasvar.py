"""Bias–variance decomposition by simulation (偏差与方差, 西瓜书 §2.5). To be implemented."""

__all__: list[str] = []
