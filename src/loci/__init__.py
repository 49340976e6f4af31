"""loci: a local-first memory and context server for LLM agents, spoken to over MCP."""

__version__ = "0.1.0"
