"""Invents the SKUs of one catalog: unique models, plausible names, sizes, colours, materials and prices."""

from __future__ import annotations

import random

from skuflow_cli.golden import vocabulary as words
from skuflow_cli.golden.style import CatalogStyle
from skuflow_cli.golden.truth import SkuTruth

CENTS = ("00", "00", "50", "90", "80", "99")


class ProductLine:
    """The products of one catalog; every model it hands out is new, so SKU keys never collide."""

    def __init__(self, rng: random.Random, style: CatalogStyle) -> None:
        self._rng = rng
        self._style = style
        self._serial = rng.randrange(10, 90) * 10
        self._unique_names: set[str] = set()
        self._motifs: dict[str, str] = {}

    def sku(self, section: str, *, with_model: bool = True) -> SkuTruth:
        return self._sku(self._rng.choice(words.SECTIONS[section][1]), with_model=with_model)

    def motif(self, sku: SkuTruth) -> str:
        """The picture motif of the SKU's product kind (what its photo shows)."""
        return self._motifs[sku.key]

    def _sku(self, kind: words.ProductKind, *, with_model: bool = True) -> SkuTruth:
        rng = self._rng
        sku = SkuTruth(model=self._next_model(kind) if with_model else None,
                       product_name=self._name(kind) if with_model else self._unique_name(kind),
                       price=self._price(kind), size=rng.choice(kind.sizes),
                       color=self._color(rng.choice(words.COLORS)),
                       material=self._in_value_language(rng.choice(kind.materials)))
        return self._remember(kind, sku)

    def variants(self, section: str, count: int) -> list[SkuTruth]:
        """One product in ``count`` colours: a base model with a colour suffix, the same name and material."""
        kind = self._rng.choice(words.SECTIONS[section][1])
        base = self._sku(kind)
        colors = self._rng.sample(words.COLORS, count)
        return [self._remember(kind, SkuTruth(model=f"{base.model}-{code}", product_name=base.product_name,
                                              price=self._price(kind), size=base.size,
                                              color=self._color((zh, en, code)), material=base.material))
                for zh, en, code in colors]

    def _remember(self, kind: words.ProductKind, sku: SkuTruth) -> SkuTruth:
        self._motifs[sku.key] = kind.motif
        return sku

    def _price(self, kind: words.ProductKind) -> str:
        low, high = kind.price_range
        return f"{self._rng.randint(low, high)}.{self._rng.choice(CENTS)}"

    def _next_model(self, kind: words.ProductKind) -> str:
        self._serial += self._rng.randint(1, 7)
        return self._style.model_format.format(prefix=kind.prefix, n=self._serial)

    def _name(self, kind: words.ProductKind) -> str:
        noun = kind.en if self._style.language == "en" else kind.zh
        if self._rng.random() < 0.6:
            return noun
        adjective = self._rng.choice(words.ADJECTIVES[self._style.text_language])
        return f"{adjective} {noun}" if self._style.language == "en" else adjective + noun

    def _unique_name(self, kind: words.ProductKind) -> str:
        """A SKU without a model is keyed by its name, so that name is never used twice in the catalog."""
        adjectives = words.ADJECTIVES[self._style.text_language]
        for noun in (kind, *(k for section in self._style.sections for k in words.SECTIONS[section][1])):
            for adjective in self._rng.sample(adjectives, len(adjectives)):
                name = f"{adjective} {noun.en}" if self._style.language == "en" else adjective + noun.zh
                if name not in self._unique_names:
                    self._unique_names.add(name)
                    return name
        raise RuntimeError("every name of this catalog is taken")

    def _color(self, color: tuple[str, str, str]) -> str:
        return self._in_value_language(color[:2])

    def _in_value_language(self, pair: tuple[str, str]) -> str:
        return pair[1] if self._style.value_language == "en" else pair[0]
