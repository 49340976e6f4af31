"""The command line's former import path: it lives in `loci.faces.cli` now. Kept so that entry
points and scripts written against `loci.cli` (an installed `loci` script made before the move,
`python -m loci.cli`) keep working."""
