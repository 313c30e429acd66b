"""``python -m paiju``: the same as the ``paiju`` console script."""

import sys

from paiju.cli import main

if __name__ == "__main__":
    sys.exit(main())
