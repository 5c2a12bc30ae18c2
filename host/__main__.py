"""`python -m host serve ...`"""

import sys

from host.commands.cli import main

sys.exit(main())
