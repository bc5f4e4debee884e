"""Which providers are configured and whether they answer, asked without generating (no tokens spent)."""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_llm.bootstrap import build_clients
from skuflow_llm.errors import ProviderError
from skuflow_llm.settings import LLMSettings


@dataclass(frozen=True)
class ProviderCheck:
    name: str
    model: str
    endpoint: str
    configured: bool
    reachable: bool
    detail: str


def _endpoints(settings: LLMSettings) -> dict[str, tuple[str, str, bool, str]]:
    """model → (provider, endpoint, configured, what to set when it is not)."""
    if settings.recording_mode == "replay":
        where = f"replay of {settings.fixtures_dir}"
        return {settings.gemini_model: ("gemini", where, True, ""), settings.qwen_model: ("qwen", where, True, "")}
    return {
        settings.gemini_model: ("gemini", settings.gemini_base_url or "Google AI default endpoint",
                                settings.gemini_configured, "SKUFLOW_LLM_GEMINI_API_KEY"),
        settings.qwen_model: ("qwen (OpenAI-compatible)", settings.qwen_base_url, settings.qwen_configured,
                              "SKUFLOW_LLM_QWEN_API_KEY"),
    }


async def check_providers(settings: LLMSettings) -> list[ProviderCheck]:
    checks = {model: ProviderCheck(name, model, endpoint, False, False, f"no API key ({variable} is empty)")
              for model, (name, endpoint, configured, variable) in _endpoints(settings).items() if not configured}
    for client in build_clients(settings):
        name, endpoint, _, _ = _endpoints(settings)[client.model_name]
        try:
            checks[client.model_name] = ProviderCheck(name, client.model_name, endpoint, True, True,
                                                      f"ok: {await client.probe()}")
        except ProviderError as exc:
            checks[client.model_name] = ProviderCheck(name, client.model_name, endpoint, True, False, exc.message)
        finally:
            await client.close()
    return [checks[model] for model in _endpoints(settings)]


async def check_shared_state(database_url: str) -> str:
    """'reachable', or why the breaker/limiter/budget state would fall back to process-local state."""
    from skuflow_llm.errors import StateStoreUnavailable
    from skuflow_llm.state.postgres import PostgresState

    state = PostgresState(database_url)
    try:
        await state.window("check", 0)
        return "reachable"
    except StateStoreUnavailable as exc:
        return f"unreachable ({exc}); each replica would use its own local state"
    except Exception as exc:  # a reachable database without the llm schema, wrong credentials, …
        return f"not usable ({type(exc).__name__}: {str(exc).splitlines()[0][:160]})"
    finally:
        await state.close()
