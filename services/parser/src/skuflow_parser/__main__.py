"""`python -m skuflow_parser`: run the parser service (HTTP health/metrics + Kafka consumers)."""

from skuflow_parser.service import definition
from skuflow_platform.runtime import serve

serve(definition)
