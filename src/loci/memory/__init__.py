"""The memory toolset's services: remember, recall, navigate, forget, transfer."""
