"""Finding memories: the engine (store, model and synced indexes), the filter language, and
ranking by named signals."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["engine", "filters", "hybrid", "passage_spans", "pipeline", "query_words", "when"]
