"""The memory toolset's MCP resources."""

from mcp.server.mcpserver import MCPServer

from loci.faces.mcp.provider import AppProvider


def register_resources(server: MCPServer, provider: AppProvider) -> None:
    """Add the memory toolset's resources: statistics, namespaces, open conflicts."""

    @server.resource(
        "memory://stats", name="stats", title="Memory statistics", mime_type="application/json"
    )
    def stats_resource() -> str:
        """Figures about the memory store, as JSON."""
        return provider.read(lambda app: app.catalog.stats().model_dump_json())

    @server.resource(
        "memory://namespaces", name="namespaces", title="Namespaces", mime_type="application/json"
    )
    def namespaces_resource() -> str:
        """Namespaces with their memory counts, as JSON."""
        return provider.read(lambda app: app.catalog.namespaces("list").model_dump_json())

    @server.resource(
        "memory://namespaces/{namespace}",
        name="namespace",
        title="A namespace's statistics",
        mime_type="application/json",
    )
    def namespace_resource(namespace: str) -> str:
        """Figures about one namespace's memories, as JSON."""
        return provider.read(lambda app: app.catalog.stats(namespace).model_dump_json())

    @server.resource(
        "memory://conflicts",
        name="conflicts",
        title="Open conflicts",
        mime_type="application/json",
    )
    def conflicts_resource() -> str:
        """Pairs of memories flagged as contradicting each other and not yet settled, newest
        first, as JSON (settle one with `supersede` or `dismiss_conflict`)."""
        return provider.read(lambda app: app.facts.open_conflicts().model_dump_json())

    @server.resource(
        "memory://conflicts/{namespace}",
        name="namespace conflicts",
        title="A namespace's open conflicts",
        mime_type="application/json",
    )
    def namespace_conflicts_resource(namespace: str) -> str:
        """The open conflicts of one namespace, as JSON."""
        return provider.read(lambda app: app.facts.open_conflicts(namespace).model_dump_json())
