"""`python -m skuflow_binder`: run the binder service (HTTP health/metrics + Kafka consumers)."""

from skuflow_platform.runtime import serve
from skuflow_binder.service import definition

serve(definition)
