"""Keeping memory healthy: reinforce what is used, decay what is not, consolidate
near-duplicates, extract facts from conversations."""
