"""`python -m loci` runs the command-line interface."""

from loci.faces.cli.launch import main

if __name__ == "__main__":
    main()
