"""Model clients behind one interface: Gemini (google-genai) and OpenAI-compatible endpoints (openai)."""

from skuflow_llm.providers.base import GenerationConfig, LLMClient, Pricing, RawResponse, TokenUsage
from skuflow_llm.providers.gemini import GeminiClient
from skuflow_llm.providers.openai_compat import OpenAICompatibleClient
from skuflow_llm.providers.registry import ModelRegistry

__all__ = ["GeminiClient", "GenerationConfig", "LLMClient", "ModelRegistry", "OpenAICompatibleClient", "Pricing",
           "RawResponse", "TokenUsage"]
