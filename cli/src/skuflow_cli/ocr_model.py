"""`skuflow ocr-model`: PP-OCR's text detector in 8-bit integers, made here from the float one in the
``rapidocr`` wheel.

Detection is about a quarter of a scanned page's OCR time; in 8-bit integers (onnxruntime's static QDQ
quantization, weights per channel) it takes a third of that on this machine's CPU and finds the same
lines: on 124 real scanned pages that did not calibrate it, 1,562 of their truth keys are in the OCR
text against 1,569 with the float detector (docs/decisions.md, OCR). Static quantization fixes each
activation's range from the detector's inputs on real pages: the first page of each document listed in
``CALIBRATION``, rendered and scaled as the parser detects it. The same pages give the same model
(``tests/real/build.py --mirrors`` rebuilds the external ones).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pymupdf

from skuflow_parser.backends.ocr_backend import page_image, scan_resolution
from skuflow_parser.backends.ocr_engines import DET_MAX_SIDE, INT8_DETECTOR

CALIBRATION = Path("tests/real/ocr-calibration.txt")  # one document a line, found in tests/real
REAL = Path("tests/real")
OPSET = 13  # per-channel quantization needs it; the wheel's detector is opset 11


def detector_inputs(pages: list[pymupdf.Page]) -> Iterator[np.ndarray]:
    """Each page as RapidOCR's detector takes it: rendered as the parser reads a scan, scaled to
    ``DET_MAX_SIDE`` pixels at most, normalized, channels first."""
    from rapidocr.ch_ppocr_det.utils import DetPreProcess

    prepare = DetPreProcess(DET_MAX_SIDE, "max")
    for page in pages:
        yield prepare(page_image(page, scan_resolution(page))[0])


def float_detector() -> Path:
    import rapidocr

    return Path(rapidocr.__file__).parent / "models" / "PP-OCRv6_det_small.onnx"


def quantize(pages: list[pymupdf.Page], out: Path, source: Path | None = None) -> Path:
    """The float detector (``source``, the wheel's by default) quantized with ``pages``' inputs, written to ``out``."""
    try:
        import onnx
        from onnx import version_converter
        from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as missing:
        raise SystemExit(f"skuflow ocr-model needs the onnx package (make setup installs it): {missing}") from None

    class Inputs(CalibrationDataReader):
        def __init__(self) -> None:
            self._inputs = detector_inputs(pages)

        def get_next(self) -> dict | None:
            return next(({"x": x} for x in self._inputs), None)

    with tempfile.TemporaryDirectory() as scratch:
        prepared, upgraded = Path(scratch) / "prepared.onnx", Path(scratch) / "opset.onnx"
        quant_pre_process(str(source or float_detector()), str(prepared), skip_symbolic_shape=True)
        onnx.save(version_converter.convert_version(onnx.load(str(prepared)), OPSET), str(upgraded))
        out.parent.mkdir(parents=True, exist_ok=True)
        quantize_static(str(upgraded), str(out), Inputs(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        reduce_range=True)  # 7-bit weights: 8-bit ones saturate on CPUs without VNNI
    return out


def calibration_pages(listing: Path, real: Path) -> list[pymupdf.Page]:
    """The first page of each document ``listing`` names (committed or external, in ``real``; '#' comments)."""
    names = [line.split("#", 1)[0].strip() for line in listing.read_text(encoding="utf-8").splitlines()]
    found = {name: next((p for p in (real / "committed" / f"{name}.pdf", real / "external" / f"{name}.pdf")
                         if p.is_file()), None) for name in names if name}
    if missing := [name for name, path in found.items() if path is None]:
        raise SystemExit(f"calibration documents not found (tests/real/build.py --mirrors rebuilds them): "
                         f"{', '.join(missing)}")
    return [pymupdf.open(path)[0] for path in found.values()]


def add_ocr_model_command(sub: argparse._SubParsersAction) -> None:
    command = sub.add_parser("ocr-model", help="write PP-OCR's text detector in 8-bit integers (the parser's "
                                               "SKUFLOW_OCR_DET_MODEL=int8)")
    command.add_argument("--calibration", type=Path, default=CALIBRATION, help="documents whose first pages "
                         "set the activations' ranges, one a line")
    command.add_argument("--real", type=Path, default=REAL, help="where the documents are")
    command.add_argument("--out", type=Path, default=INT8_DETECTOR)
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    pages = calibration_pages(args.calibration, args.real)
    print(f"quantizing the detector on {len(pages)} pages", file=sys.stderr)
    print(quantize(pages, args.out))
    return 0
