"""`python -m skuflow_extractor`: run the extractor service (HTTP health/metrics + Kafka consumers)."""

from skuflow_platform.runtime import serve
from skuflow_extractor.service import definition

serve(definition)
