"""`python -m skuflow_collab`: run the collab service (HTTP health/metrics + Kafka consumers)."""

from skuflow_collab.service import definition
from skuflow_platform.runtime import serve

serve(definition)
