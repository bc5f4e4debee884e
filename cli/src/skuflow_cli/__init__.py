"""skuflow command line."""

import sys

# PyMuPDF 2 loads its ONNX page-layout analyser whenever it is imported (a second of CPU, 50 MB); skuflow
# never asks PyMuPDF for a layout (its tables are read from words and drawn rules), so its commands leave it unloaded
sys.modules.setdefault("pymupdf.layout", None)
