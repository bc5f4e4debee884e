"""`python -m skuflow_collab`: run the collab service (HTTP health/metrics + Kafka consumers)."""

from skuflow_platform.runtime import serve
from skuflow_collab.service import definition

serve(definition)
