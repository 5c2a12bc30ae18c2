import sys

from generator.quick_check import answer

# An up-to-date tree is answered before the CLI and its imports are loaded (see quick_check).
code = answer(sys.argv[1:])
if code is None:
    from generator.cli import main

    code = main()
sys.exit(code)
