"""The course's command-line tools (the Makefile runs them; tests and bench import them as ``scripts.X``)."""
