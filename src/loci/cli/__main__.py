"""`python -m loci.cli` runs the command-line interface, as `python -m loci` does."""

from loci.faces.cli.launch import main

if __name__ == "__main__":
    main()
