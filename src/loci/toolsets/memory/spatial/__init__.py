"""Memory as a landscape: paths, walks and regions through the vector space."""
