"""Memory as a landscape: paths, walks and regions through the vector space."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["journey", "map_drawing", "models", "regions", "visualize", "wander"]
