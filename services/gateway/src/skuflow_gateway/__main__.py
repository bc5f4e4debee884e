"""`python -m skuflow_gateway`: run the gateway service (HTTP health/metrics + Kafka consumers)."""

from skuflow_gateway.service import definition
from skuflow_platform.runtime import serve

serve(definition)
