"""Facts that change over time: supersede, invalidate, history, and contradictions flagged
when a memory is written, judged on the claims statements make (no language model)."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["claims", "contradictions", "service"]
