"""`python -m skuflow_evaluator`: run the evaluator service (HTTP health/metrics + Kafka consumers)."""

from skuflow_platform.runtime import serve
from skuflow_evaluator.service import definition

serve(definition)
