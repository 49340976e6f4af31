"""Who may use the HTTP server: named tokens, each limited to some toolsets or to reading."""
