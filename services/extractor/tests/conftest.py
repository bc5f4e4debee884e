"""Lets the extractor tests import their IR page builders (``extractor_pages``) under importlib mode."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
