"""Former path of `loci.faces.cli.launch` (the `loci` script's entry point before the move)."""

from loci.faces.cli.launch import main, serve_over_http, serve_stdio

__all__ = ["main", "serve_over_http", "serve_stdio"]
