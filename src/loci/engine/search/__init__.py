"""Finding memories: the engine (store, model and synced indexes), the filter language, and
ranking by named signals."""
