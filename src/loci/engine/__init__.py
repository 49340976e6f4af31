"""The engine: embedding text, finding memories (search) and ordering them (sequences)."""
