"""Lets the binder tests import their builders (``binder_pages``) under pytest's importlib mode."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
