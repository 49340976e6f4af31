"""Keeping memory healthy: reinforce what is used, decay what is not, consolidate
near-duplicates, extract facts from conversations."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["consolidate", "cues", "decay", "extract", "models", "reinforce"]
