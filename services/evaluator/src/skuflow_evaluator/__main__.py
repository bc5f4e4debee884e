"""`python -m skuflow_evaluator`: run the evaluator service (HTTP health/metrics + Kafka consumers)."""

from skuflow_evaluator.service import definition
from skuflow_platform.runtime import serve

serve(definition)
