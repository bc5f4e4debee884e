"""`python -m skuflow_parser`: run the parser service (HTTP health/metrics + Kafka consumers)."""

from skuflow_platform.runtime import serve
from skuflow_parser.service import definition

serve(definition)
