"""Fast tests of plain logic: no App is built and no embedding model is loaded."""
