"""`python -m skuflow_classifier`: run the classifier service (HTTP health/metrics + Kafka consumers)."""

from skuflow_classifier.service import definition
from skuflow_platform.runtime import serve

serve(definition)
