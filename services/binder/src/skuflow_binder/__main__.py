"""`python -m skuflow_binder`: run the binder service (HTTP health/metrics + Kafka consumers)."""

from skuflow_binder.service import definition
from skuflow_platform.runtime import serve

serve(definition)
