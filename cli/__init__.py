"""The command line and the local stack runner: the top floor, which starts everything below."""
