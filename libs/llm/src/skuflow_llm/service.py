"""``LLMService``: the seven business operations and the one engine they share (seed-002 §3, §4).

``_execute`` order: page call cap → prompt → injection guard → budget check and routing → reservation →
rate limit → parse retry ( API retry ( model or fallback ) ) → commit (rollback on any failure) → trace.
Every answer comes back as an ``ExecuteResult`` so ``needs_review`` travels with it; when a call fails,
the error's ``context["calls_made"]`` says how many page calls it used.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from skuflow_llm.budget import TokenBudgetGuard
from skuflow_llm.context import LLMCallContext, Operation
from skuflow_llm.dispatch import ModelDispatcher
from skuflow_llm.errors import LLMError, LLMUnavailableError, ProviderError
from skuflow_llm.guard import InputGuard, RiskPolicy, SafeRequest
from skuflow_llm.limiter import GlobalRateLimiter
from skuflow_llm.observability import metrics
from skuflow_llm.observability.langfuse import NoTraceSink, TraceSink
from skuflow_llm.observability.tracing import operation_span
from skuflow_llm.prompts.anchor import DocumentAnchorBuilder
from skuflow_llm.prompts.engine import PromptEngine
from skuflow_llm.providers.base import RawResponse
from skuflow_llm.repair.parser import ParseResult, ResponseParser
from skuflow_llm.results import (
    BindingHints,
    ClassifyResult,
    DocumentEvaluation,
    ExecuteResult,
    LayoutResult,
    RoleAssignment,
    SKUAttrResult,
)
from skuflow_llm.retry import PageCallAllowance, RetryPolicy
from skuflow_llm.routing import LLMRouter

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Answered:
    response: RawResponse
    parsed: ParseResult


@dataclass(kw_only=True)
class LLMService:
    """Built by ``build_llm_service``; ``resources`` are closed by ``aclose`` (provider clients, state pool)."""

    router: LLMRouter
    dispatcher: ModelDispatcher
    limiter: GlobalRateLimiter
    budget: TokenBudgetGuard
    prompts: PromptEngine
    anchors: DocumentAnchorBuilder
    guard: InputGuard
    parser: ResponseParser
    api_retry: RetryPolicy
    parse_retry: RetryPolicy
    page_call_limit: int = 6
    trace_sink: TraceSink = field(default_factory=NoTraceSink)
    resources: Sequence[object] = ()

    async def aclose(self) -> None:
        """Close provider connections and the state database's pool."""
        for resource in self.resources:
            close = getattr(resource, "close", None)
            if close is not None:
                await close()

    async def evaluate_document(self, ctx: LLMCallContext) -> ExecuteResult[DocumentEvaluation]:
        """Document-level scores for the evaluator; the screenshots are pages it sampled (FR-1.2)."""
        return await self._run(ctx, "eval_document")

    async def classify_page(self, ctx: LLMCallContext) -> ExecuteResult[ClassifyResult]:
        return await self._run(ctx, "classify_page")

    async def classify_text(self, ctx: LLMCallContext) -> ExecuteResult[RoleAssignment]:
        return await self._run(ctx, "classify_text")

    async def classify_images(self, ctx: LLMCallContext) -> ExecuteResult[RoleAssignment]:
        return await self._run(ctx, "classify_images")

    async def classify_layout(self, ctx: LLMCallContext) -> ExecuteResult[LayoutResult]:
        return await self._run(ctx, "classify_layout")

    async def extract_sku_attrs(self, ctx: LLMCallContext) -> ExecuteResult[SKUAttrResult]:
        return await self._run(ctx, "extract_sku_attrs")

    async def resolve_binding(self, ctx: LLMCallContext) -> ExecuteResult[BindingHints]:
        """Only for ambiguous bindings: the binder's top-1 and top-2 candidates less than 0.15 apart (C17)."""
        return await self._run(ctx, "resolve_binding")

    async def _run(self, ctx: LLMCallContext, operation: Operation) -> ExecuteResult[Any]:
        if ctx.operation != operation:
            raise ValueError(f"context is for {ctx.operation!r}, not {operation!r}: use ctx.clone({operation!r})")
        with operation_span(ctx) as span:
            result = await self._execute(ctx)
            span.set_attributes({"skuflow.llm.route": result.route, "skuflow.llm.model": result.model_used,
                                 "skuflow.llm.needs_review": result.needs_review,
                                 "skuflow.llm.calls_made": result.calls_made})
            return result

    async def _execute(self, ctx: LLMCallContext) -> ExecuteResult[Any]:
        allowance = PageCallAllowance(self.page_call_limit, ctx.page_call_counter)
        try:
            return await self._execute_within(ctx, allowance)
        except LLMError as exc:
            exc.context.setdefault("calls_made", allowance.made)
            raise

    async def _execute_within(self, ctx: LLMCallContext, allowance: PageCallAllowance) -> ExecuteResult[Any]:
        anchored = self.anchors.build(ctx.text_blocks)
        images = ctx.collected_images()
        prompt = await self.prompts.render(
            ctx.operation, profile=ctx.profile, experiment_bucket=ctx.experiment_bucket, job_id=ctx.job_id,
            anchored_text=anchored, features=dict(ctx.features), image_count=len(images), inputs=dict(ctx.inputs),
            category=ctx.category or (ctx.profile.category if ctx.profile else None))
        request = self.guard.build_safe_request(prompt.text, anchored, images)
        budget = await self.budget.check(ctx.merchant_id)
        decision = self.router.select(ctx, budget_ok=budget.ok)
        if not decision.needs_llm:
            return ExecuteResult(answer=None, route=decision.route, model_used=decision.route,
                                 budget_remaining=budget.remaining, prompt_version=prompt.version)
        model = self.router.config(decision.route).model
        client = self.dispatcher.registry.get(model)
        est_tokens = client.estimate_tokens(request.prompt, request.images)
        reservation = await self.budget.reserve(ctx.merchant_id, client.pricing.estimate_usd(est_tokens))
        try:
            chosen = await self.limiter.wait_or_degrade(model, est_tokens)
            answered = await self.parse_retry.run(lambda: self._answer(chosen, request, ctx.operation, allowance))
            await self.budget.commit(reservation, answered.response.cost_usd)
        except BaseException:
            await self.budget.rollback(reservation)
            raise
        response, parsed = answered.response, answered.parsed
        metrics.TOKEN_ESTIMATION_ERROR.observe(est_tokens - response.tokens.total)
        reason = decision.downgrade_reason or ("rate_limit" if chosen != model else None) or response.fallback_reason
        if response.images_truncated:
            log.warning("images_truncated", extra={"fields": {"model": response.model, "images": len(images),
                                                              "images_used": response.images_used}})
        result = ExecuteResult(
            answer=parsed.answer, route=decision.route, model_used=response.model, was_downgraded=reason is not None,
            downgrade_reason=reason, budget_remaining=budget.remaining - response.cost_usd,
            needs_review=request.risk_policy is RiskPolicy.FORCE_REVIEW or parsed.needs_review,
            parse_method=parsed.parse_method, anomaly_flags=parsed.anomaly_flags,
            injection_flags=request.injection_flags, images_truncated=response.images_truncated,
            images_used=response.images_used, calls_made=allowance.made, prompt_version=prompt.version,
            cost_usd=response.cost_usd)
        self.trace_sink.record(ctx.operation, request.prompt, response, {
            "merchant_id": ctx.merchant_id, "job_id": ctx.job_id, "category": ctx.category, "route": decision.route,
            "was_downgraded": result.was_downgraded, "downgrade_reason": reason,
            "injection_flags": request.injection_flags, "risk_policy": request.risk_policy.value,
            "is_retry": ctx.is_retry, "parse_method": parsed.parse_method, "needs_review": result.needs_review,
            "semantic_failure_count": ctx.semantic_failure_count, "images_truncated": response.images_truncated,
            "prompt_version": prompt.version})
        return result

    async def _answer(self, model: str, request: SafeRequest, operation: Operation,
                      allowance: PageCallAllowance) -> _Answered:
        try:
            response = await self.api_retry.run(lambda: self.dispatcher.call(model, request, operation, allowance))
        except ProviderError as exc:
            raise LLMUnavailableError(exc.message, "LLM_CALL_FAILED", dict(exc.context)) from exc
        strict = request.risk_policy is RiskPolicy.STRICT_SCHEMA
        return _Answered(response, self.parser.parse(response.text, response.model, operation, strict_anomaly=strict))
