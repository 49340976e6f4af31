"""Retrieval quality measured on public data sets, through the same code path as `recall`."""
