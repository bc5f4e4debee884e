"""`python -m skuflow_extractor`: run the extractor service (HTTP health/metrics + Kafka consumers)."""

from skuflow_extractor.service import definition
from skuflow_platform.runtime import serve

serve(definition)
