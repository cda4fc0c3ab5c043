import sys

from redscope_bridge.cli import main

sys.exit(main())
