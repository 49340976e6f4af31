"""`python -m loci` runs the command-line interface."""

from loci.cli.main import main

if __name__ == "__main__":
    main()
