"""The faces loci is reached through: MCP, HTTP, the web view and the command line, each a
thin layer over the services that the composition root (`loci.app`) builds."""
