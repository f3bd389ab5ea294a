"""P-R, ROC and cost curves (西瓜书 §2.3.2–2.3.4). To be implemented (issue: performance measures)."""

__all__: list[str] = []
