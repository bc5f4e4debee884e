"""How one catalog prints things: which synonym for each label, which separator, field order, currency.

Real catalogs are consistent inside themselves and different from each other, so every choice here is
made once per document.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skuflow_cli.golden import vocabulary as words

A4 = (595.0, 842.0)
LETTER = (612.0, 792.0)
OPTIONAL_FIELDS = ("size", "material", "color")


@dataclass(frozen=True)
class CatalogStyle:
    language: str
    brand: tuple[str, str]
    title: str
    sections: tuple[str, ...]
    separator: str
    labels: dict[str, str]
    block_order: tuple[str, ...]
    table_order: tuple[str, ...]
    name_as_title: bool
    price_format: str
    model_format: str
    table_rules: str
    page_size: tuple[float, float]
    header_footer: bool
    body_size: float
    accent: tuple[float, float, float]
    value_language: str

    @property
    def text_language(self) -> str:
        """Language of prose and marks; a mixed catalog writes its prose in Chinese."""
        return "en" if self.language == "en" else "zh"

    @property
    def currency_free(self) -> bool:
        return self.price_format == words.NO_CURRENCY

    def line(self, field: str, value: str) -> str:
        return f"{self.labels[field]}{self.separator}{value}"

    def price_text(self, price: str | None, rng: random.Random) -> str:
        if price is None:
            return rng.choice(words.NO_PRICE_MARKS[self.text_language])
        return self.price_format.format(price)

    def column_label(self, field: str) -> str:
        """A table header; a currency-free price column often names its unit in the header instead."""
        label = self.labels[field]
        if field == "price" and self.currency_free:
            return label + words.UNIT_HINTS[self.text_language]
        return label


def choose_style(rng: random.Random, language: str, *, currency_free: bool) -> CatalogStyle:
    fields_shown = tuple(f for f in OPTIONAL_FIELDS if rng.random() < 0.75)
    middle = ["model", *fields_shown]
    rng.shuffle(middle)
    brand = rng.choice(words.BRANDS)
    text_language = "en" if language == "en" else "zh"
    return CatalogStyle(
        language=language,
        brand=brand,
        title=rng.choice(words.CATALOG_TITLES[text_language]).format(year=rng.choice((2025, 2026))),
        sections=tuple(rng.sample(sorted(words.SECTIONS), rng.randint(1, 3))),
        separator=rng.choice(("：", "：", ":")) if language != "en" else rng.choice((":", ": ")),
        labels={f: _label(rng, f, language) for f in words.FIELDS},
        block_order=("product_name", *middle, "price"),
        table_order=_table_order(rng, fields_shown),
        name_as_title=rng.random() < 0.5,
        price_format=words.NO_CURRENCY if currency_free else rng.choice(words.PRICE_STYLES[language]),
        model_format=rng.choice(("{prefix}-{n:04d}", "{prefix}{n:05d}", "{prefix}-26{n:03d}", "{prefix}.{n:03d}")),
        table_rules=rng.choice(("grid", "rows", "zebra", "none")),
        page_size=LETTER if language == "en" and rng.random() < 0.4 else A4,
        header_footer=rng.random() < 0.85,
        body_size=rng.choice((8.0, 9.0, 9.5, 10.0)),
        accent=tuple(rng.choice((0.1, 0.3, 0.6, 0.8)) for _ in range(3)),
        value_language=language if language != "mixed" else rng.choice(("zh", "en")),
    )


def _label(rng: random.Random, field: str, language: str) -> str:
    choices = words.LABELS[field]
    if language == "mixed":
        return words.bilingual(rng.choice(choices["zh"]), rng.choice(choices["en"]))
    return rng.choice(choices[language])


def _table_order(rng: random.Random, fields_shown: tuple[str, ...]) -> tuple[str, ...]:
    """Tables start with the model (or the name) and end with the price; the rest varies."""
    first, second = ("model", "product_name") if rng.random() < 0.75 else ("product_name", "model")
    middle = list(fields_shown)
    rng.shuffle(middle)
    return (first, second, *middle, "price")
