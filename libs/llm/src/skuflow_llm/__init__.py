"""skuflow's LLM adapter (seed 002): one interface over Gemini and OpenAI-compatible models, with routing,
circuit breaking, rate limits, budgets, prompts, injection guarding, response repair and tracing.
"""

from skuflow_llm.bootstrap import build_llm_service, optional_llm_service
from skuflow_llm.context import OPERATIONS, LLMCallContext, Operation
from skuflow_llm.errors import (
    LLMCallLimitError,
    LLMCircuitOpenError,
    LLMError,
    LLMNotConfiguredError,
    LLMParseError,
    LLMUnavailableError,
)
from skuflow_llm.results import (
    BindingHints,
    ClassifyResult,
    DocumentEvaluation,
    ExecuteResult,
    LayoutResult,
    RoleAssignment,
    Score,
    SKUAttrResult,
)
from skuflow_llm.service import LLMService
from skuflow_llm.settings import LLMSettings

__all__ = [
    "OPERATIONS", "BindingHints", "ClassifyResult", "DocumentEvaluation", "ExecuteResult", "LLMCallContext",
    "LLMCallLimitError", "LLMCircuitOpenError", "LLMError", "LLMNotConfiguredError", "LLMParseError", "LLMService",
    "LLMSettings", "LLMUnavailableError", "LayoutResult", "Operation", "RoleAssignment", "SKUAttrResult", "Score",
    "build_llm_service", "optional_llm_service",
]
