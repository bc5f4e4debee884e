"""Lets the parser tests import their PDF builders (``pdf_samples``) under pytest's importlib mode."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
