"""`python -m skuflow_output`: run the output service (HTTP health/metrics + Kafka consumers)."""

from skuflow_output.service import definition
from skuflow_platform.runtime import serve

serve(definition)
