"""`python -m host serve ...`"""

import sys

from host.commands.entry import main

sys.exit(main())
