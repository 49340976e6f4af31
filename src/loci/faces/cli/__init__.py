"""The `loci` command line: a thin layer of commands over the services."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["launch", "main", "numbers", "output", "progress_lines"]
