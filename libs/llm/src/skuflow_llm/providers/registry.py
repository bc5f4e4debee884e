"""The configured models, and which one stands in when another fails (seed-002 §5 ``ModelRegistry``)."""

from __future__ import annotations

from skuflow_llm.providers.base import LLMClient


class ModelRegistry:
    def __init__(self, clients: list[LLMClient], fallbacks: dict[str, str] | None = None) -> None:
        self._clients = {client.model_name: client for client in clients}
        self._fallbacks = {model: other for model, other in (fallbacks or {}).items()
                           if model in self._clients and other in self._clients and other != model}

    def get(self, model: str) -> LLMClient:
        try:
            return self._clients[model]
        except KeyError:
            raise KeyError(f"model {model!r} is not configured (have {', '.join(self._clients)})") from None

    def get_fallback(self, model: str) -> LLMClient | None:
        other = self._fallbacks.get(model)
        return self._clients[other] if other else None

    async def close(self) -> None:
        for client in self._clients.values():
            await client.close()
