"""The `loci` command line: a thin layer of commands over the services."""
