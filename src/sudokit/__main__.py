"""``python -m sudokit``: the same as the ``sudokit`` command."""

from .cli import main

if __name__ == "__main__":
    main()
