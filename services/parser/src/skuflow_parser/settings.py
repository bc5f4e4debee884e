"""Parser configuration (``SKUFLOW_*`` environment variables)."""

from pydantic_settings import SettingsConfigDict

from skuflow_parser.domain.security import MAX_OBJECT_COUNT, MAX_PAGES
from skuflow_parser.domain.text_layer import MIN_TEXT_CHARS, TEXT_COVERAGE_THRESHOLD
from skuflow_platform.settings import PlatformSettings


class ParserSettings(PlatformSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_", extra="ignore")

    parser_workers: int = 1
    parser_max_tasks_per_child: int = 200
    parser_page_budget_seconds: float = 60.0
    ocr_enabled: bool = True
    ocr_dpi: int = 200
    text_coverage_threshold: float = TEXT_COVERAGE_THRESHOLD
    min_text_chars: int = MIN_TEXT_CHARS
    max_pages: int = MAX_PAGES
    max_pdf_objects: int = MAX_OBJECT_COUNT
