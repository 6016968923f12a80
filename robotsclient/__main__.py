"""`python -m robotsclient`: the command line."""

from ._cli import main

main()
