"""Keeping memory healthy: reinforce (and, with issue 34, consolidate, decay, extract)."""
