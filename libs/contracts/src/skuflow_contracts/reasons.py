"""Why a page needs a person, in words (issue 41).

The services write their reasons as short codes (``unread_codes:107``, ``nothing_read``,
``duplicate_model_in_page:<sku ids>``): events, stored results and tasks carry them as written, and
operators grep for them. Annotators and uploaders are shown a sentence instead, in English and
Chinese, with the code beside it. This module only reads the codes; it changes none of them.

Each ``Wording`` recognises one kind of reason by a pattern over the whole string; its named groups
fill the sentences (``n``: a number; ``ids``: a comma-separated list, counted as ``count``). A
reason no wording knows is read as a category's own rule (profiles name those freely).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict


class Explained(TypedDict):
    code: str
    detail: str | None
    en: str
    zh: str


@dataclass(frozen=True)
class Wording:
    code: str
    pattern: str  # over the whole reason; a group named ``detail`` is what follows the code
    en: str
    zh: str
    example: str  # a reason as a service writes it

    def match(self, reason: str) -> re.Match[str] | None:
        return re.fullmatch(self.pattern, reason, re.DOTALL)


N = r"(?P<detail>(?P<n>\d+))"
IDS = r"(?P<detail>(?P<ids>.+))"
IDS_EXAMPLE = "d7e3bd58_p02_001,d7e3bd58_p02_002"

WORDINGS: tuple[Wording, ...] = (
    # the extractor: what it could not read
    Wording("nothing_read", r"nothing_read:(?P<detail>unread_codes=(?P<n>\d+))",
            "No product could be read from this page; it prints {n} product code{s}",
            "此页未能识别出任何产品；页面上印有 {n} 个产品编码", "nothing_read:unread_codes=107"),
    Wording("nothing_read", r"nothing_read:(?P<detail>no_text)",
            "No product could be read from this page: it has no readable text",
            "此页未能识别出任何产品：页面上没有可读的文字", "nothing_read:no_text"),
    Wording("nothing_read", r"nothing_read", "No product could be read from this page",
            "此页未能识别出任何产品", "nothing_read"),
    Wording("unread_codes", rf"unread_codes:{N}", "{n} product code{s} could not be read",
            "{n} 个产品编码无法识别", "unread_codes:107"),
    Wording("unread_prices", rf"unread_prices:{N}", "{n} price{s} unreadable", "{n} 个价格无法识别",
            "unread_prices:11"),
    Wording("unreadable_prices", rf"unreadable_prices:{N}",
            "{n} price{s} printed in a form that could not be understood", "{n} 个价格的格式无法解析",
            "unreadable_prices:3"),
    Wording("low_confidence_skus", rf"low_confidence_skus:{N}", "{n} product{s} read with low confidence",
            "{n} 个产品识别置信度低", "low_confidence_skus:5"),
    Wording("reader_confidence", r"reader_confidence:(?P<detail>(?P<confidence>[\d.]+)<(?P<bar>[\d.]+))",
            "The reader is unsure of this page (confidence {confidence}, below {bar})",
            "识别器对此页把握不足（置信度 {confidence}，低于 {bar}）", "reader_confidence:0.41<0.60"),
    Wording("fewer_products_than_taught",
            r"fewer_products_than_taught:(?P<detail>(?P<share>[\d.]+)<(?P<taught>[\d.]+))",
            "Fewer products were read for this page's priced rows ({share} a row) than the corrected page of its "
            "layout holds ({taught} a row): some may be missing",
            "此页每个带价格的行读出的产品（{share}）少于同版式已更正页（{taught}）：可能有遗漏",
            "fewer_products_than_taught:0.60<1.00"),
    Wording("adaptation_doubtful", r"adaptation_doubtful:page (?P<detail>(?P<page>\d+))",
            "A correction of page {page} does not fit every page of this layout (it would leave one of them "
            "read to nothing): it was applied only where it reads products, and each page is for a person to check",
            "第 {page} 页的更正并不适用于同版式的每一页（会使其中一页什么也读不出）："
            "仅应用于能读出商品的页，每页都需人工核对",
            "adaptation_doubtful:page 3"),
    # the extractor's fallbacks: why its last reading method was the one that stood
    Wording("all_extraction_failed", r"all_extraction_failed", "Every reading method failed on this page",
            "所有识别方法在此页都失败了", "all_extraction_failed"),
    Wording("table_rule_empty", r"table_rule_empty", "No table rows were found on this table page",
            "此表格页未找到表格行", "table_rule_empty"),
    Wording("method_empty", r"(?P<detail>two_stage|single_stage)_empty", "One reading method found nothing here",
            "一种识别方法在此页未找到内容", "two_stage_empty"),
    Wording("invalid_ratio", r"invalid_ratio=(?P<detail>(?P<ratio>[\d.]+))",
            "Too many products were read without a code or a name ({ratio})",
            "缺少编码或名称的产品过多（{ratio}）", "invalid_ratio=0.40"),
    Wording("exception", r"exception:(?P<detail>\w+)", "A reading method failed with an error ({detail})",
            "一种识别方法出错（{detail}）", "exception:ValueError"),
    # language models: asked where the rules were unsure
    Wording("llm_read", r"llm:(?P<detail>(?P<model>\S+)(?: after .+)?)", "Read by a language model ({model})",
            "由语言模型（{model}）识别", "llm:qwen-plus after all_extraction_failed"),
    Wording("llm_answer_flagged", r"llm_answer_flagged:(?P<detail>(?P<model>.+))",
            "The language model's answer ({model}) was flagged as doubtful",
            "语言模型（{model}）的回答被标记为可疑", "llm_answer_flagged:qwen-plus"),
    Wording("llm_not_adopted", r"llm (?P<detail>(?P<model>\S+): nothing read)",
            "The language model ({model}) could not read a product either", "语言模型（{model}）也未能识别出产品",
            "llm qwen-plus: nothing read"),
    Wording("llm_not_adopted", r"llm (?P<detail>(?P<model>\S+): invalid_ratio=(?P<ratio>[\d.]+))",
            "The language model's reading ({model}) was not used: too many products without a code or a name "
            "({ratio})", "未采用语言模型（{model}）的识别结果：缺少编码或名称的产品过多（{ratio}）",
            "llm qwen-plus: invalid_ratio=0.50"),
    Wording("llm_not_adopted", r"llm (?P<detail>(?P<model>\S+): fewer SKUs than the rules)",
            "The language model's reading ({model}) was not used: it found fewer products than the rules",
            "未采用语言模型（{model}）的识别结果：识别出的产品少于规则", "llm qwen-plus: fewer SKUs than the rules"),
    Wording("llm_unavailable", r"llm unavailable \((?P<detail>[^)]*)\)",
            "The language model could not be reached ({detail})", "无法连接语言模型（{detail}）",
            "llm unavailable (TimeoutError)"),
    # the classifier and the evaluator
    Wording("classification", r"classification:(?P<detail>.+)", "The page's type is uncertain: {detail}",
            "页面类型不确定：{detail}", "classification:scan with little readable text"),
    Wording("evaluation", r"evaluation: (?P<detail>page score (?P<score>[\d.]+) < PV (?P<bar>[\d.]+))",
            "The document's first check scored this page low ({score}, below {bar})",
            "文档初评时此页得分偏低（{score}，低于 {bar}）", "evaluation: page score 0.41 < PV 0.60"),
    # the parser: a page no backend could read
    Wording("parse_failed", r"parse_failed:(?P<detail>page_timeout:.*)",
            "Reading this page took too long and was stopped", "读取此页超时，已停止",
            "parse_failed:page_timeout: page 3 took longer than 120 s"),
    Wording("parse_failed", r"parse_failed:(?P<detail>worker_crashed:.*)", "The page reader crashed on this page",
            "读取此页时程序崩溃", "parse_failed:worker_crashed: exit code -9"),
    Wording("parse_failed", r"parse_failed:(?P<detail>.*)", "This page could not be opened ({detail})",
            "无法打开此页（{detail}）", "parse_failed:unreadable_page: RuntimeError: bad xref"),
    # the binder: pictures, and the consistency rules of seed-000 §11.1
    Wording("ambiguous_binding", r"ambiguous_binding", "Which picture belongs to which product is unclear",
            "产品与图片的对应关系不明确", "ambiguous_binding"),
    Wording("ambiguous_binding", rf"ambiguous image binding for {IDS}",
            "Which picture belongs to {count} product{s} is unclear", "{count} 个产品与图片的对应关系不明确",
            f"ambiguous image binding for {IDS_EXAMPLE.replace(',', ', ')}"),
    Wording("sku_without_image", rf"sku_without_image:{IDS}",
            "{count} product{s} without a picture, though the page shows product pictures",
            "{count} 个产品没有对应图片（页面上有产品图片）", f"sku_without_image:{IDS_EXAMPLE}"),
    Wording("image_without_sku", rf"image_without_sku:{IDS}", "{count} picture{s} belonging to no product",
            "{count} 张图片没有对应的产品", "image_without_sku:img_d7e3bd58_p02_001"),
    Wording("duplicate_model_in_page", rf"duplicate_model_in_page:{IDS}",
            "{count} products share their model code with another on this page", "{count} 个产品的型号在本页重复",
            f"duplicate_model_in_page:{IDS_EXAMPLE}"),
    Wording("price_format_invalid", rf"price_format_invalid:{IDS}",
            "{count} product{s} with a price that is not a valid amount", "{count} 个产品的价格不是有效金额",
            f"price_format_invalid:{IDS_EXAMPLE}"),
    Wording("all_skus_invalid", r"all_skus_invalid",
            "None of the products read is complete: each lacks a code or a name",
            "识别出的产品都不完整：缺少编码或名称", "all_skus_invalid"),
    Wording("required_field", r"required_(?P<detail>\w+)", "The category requires “{detail}”, which some products lack",
            "类目要求填写“{detail}”，部分产品缺少", "required_price"),
    # collab: why a page became the task it is
    Wording("custom_attributes", rf"custom attributes to confirm on {IDS}",
            "{count} product{s} with new attributes to confirm", "{count} 个产品有待确认的新属性",
            f"custom attributes to confirm on {IDS_EXAMPLE.replace(',', ', ')}"),
    Wording("routed_to_people", r"the document is routed to people", "The whole document is checked by people",
            "整份文档由人工审核", "the document is routed to people"),
    Wording("low_confidence", r"low confidence", "The reading is not confident enough", "识别结果置信度不足",
            "low confidence"),
)
CATEGORY_RULE = Wording("category_rule", r"(?P<detail>[\w.-]+)", "The category's rule “{detail}” is not met",
                        "未满足类目规则“{detail}”", "price_range")
OTHER = Wording("other", r"(?P<detail>.*)", "Another check asks for a look: {detail}", "其他检查要求人工查看：{detail}",
                "see the page")


def recognise(reason: str) -> tuple[Wording, re.Match[str]]:
    """The first wording whose pattern takes the whole reason (``OTHER`` takes any)."""
    return next((w, found) for w in (*WORDINGS, CATEGORY_RULE, OTHER) if (found := w.match(reason)) is not None)


def explain(reason: str) -> Explained:
    """One reason as written, in words: ``{code, detail, en, zh}``."""
    wording, found = recognise(reason)
    values: dict[str, object] = {k: v for k, v in found.groupdict().items() if v is not None}
    if "ids" in values:
        values["count"] = len(re.split(r",\s*", str(values["ids"])))
    counted = values.get("count", values.get("n"))
    values["s"] = "" if counted is not None and int(str(counted)) == 1 else "s"
    return {"code": wording.code, "detail": found.groupdict().get("detail"),
            "en": wording.en.format(**values), "zh": wording.zh.format(**values)}


def explain_all(reasons: Iterable[str]) -> list[Explained]:
    return [explain(reason) for reason in reasons]
