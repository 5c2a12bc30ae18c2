import gc
import sys

from generator.write.quick_check import answer

# An up-to-date tree is answered before the CLI and its imports are loaded (see quick_check).
code = answer(sys.argv[1:])
if code is None:
    # A run allocates much that lives to its end (the surfaces, the tools, the rendered text) and
    # makes few cycles: the collector's default passes over it cost about 8% of a run's CPU. Rarer
    # passes keep that cost off and still bound what cycles there are.
    gc.set_threshold(100_000, 50, 1000)
    from generator.commands.cli import main

    code = main()
sys.exit(code)
