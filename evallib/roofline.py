"""Model compute requirements and the roofline model (notes 004, 模型计算需求). To be implemented."""

__all__: list[str] = []
