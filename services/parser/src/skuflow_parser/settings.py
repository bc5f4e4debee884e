"""Parser configuration (``SKUFLOW_*`` environment variables)."""

from pydantic_settings import SettingsConfigDict

from skuflow_parser.backends.ocr_engines import DET_MAX_SIDE, REC_BATCH_SIZE, DetModel, EngineName, OcrTuning
from skuflow_parser.backends.screenshot import DEFAULT_DPI as SCREENSHOT_DPI
from skuflow_parser.domain.images import DECORATION_MAX_SIDE
from skuflow_parser.domain.screenshots import ScreenshotPolicy
from skuflow_parser.domain.security import MAX_OBJECT_COUNT, MAX_PAGES
from skuflow_parser.domain.text_layer import MIN_TEXT_CHARS, TEXT_COVERAGE_THRESHOLD, TextLayerRule
from skuflow_parser.pages import ParserConfig
from skuflow_platform.settings import PlatformSettings


class ParserSettings(PlatformSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_", extra="ignore")

    parser_workers: int = 1
    # a new worker costs ~3 s of CPU (imports, OCR models, warm-up); a worker's RSS levels off at
    # ~0.75 GB within ~400 pages and stayed there over 830 (docs/performance.md)
    parser_max_tasks_per_child: int = 1000
    parser_page_budget_seconds: float = 60.0
    parser_document_budget_seconds: float = 120.0  # opening and pre-checking a whole document
    ocr_enabled: bool = True
    ocr_dpi: int = 200
    ocr_engine: EngineName = "rapidocr"
    ocr_rec_batch_size: int = REC_BATCH_SIZE
    ocr_det_max_side: int = DET_MAX_SIDE
    ocr_det_model: DetModel = "float"
    ocr_flatten_photos: bool = False
    text_coverage_threshold: float = TEXT_COVERAGE_THRESHOLD
    min_text_chars: int = MIN_TEXT_CHARS
    image_decoration_floor_pt: float = DECORATION_MAX_SIDE
    page_screenshots: ScreenshotPolicy = "needed"
    screenshot_dpi: int = SCREENSHOT_DPI
    max_pages: int = MAX_PAGES
    max_pdf_objects: int = MAX_OBJECT_COUNT

    def parser_config(self) -> ParserConfig:
        return ParserConfig(
            text_layer=TextLayerRule(coverage_threshold=self.text_coverage_threshold, min_chars=self.min_text_chars),
            ocr_enabled=self.ocr_enabled, ocr_dpi=self.ocr_dpi,
            ocr=OcrTuning(engine=self.ocr_engine, rec_batch_size=self.ocr_rec_batch_size,
                          det_max_side=self.ocr_det_max_side, det_model=self.ocr_det_model),
            flatten_photos=self.ocr_flatten_photos,
            decoration_floor=self.image_decoration_floor_pt,
            screenshots=self.page_screenshots, screenshot_dpi=self.screenshot_dpi)
