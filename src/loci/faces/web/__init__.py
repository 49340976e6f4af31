"""The web view: loci's memories in a browser, served at `/ui` by the HTTP server."""
