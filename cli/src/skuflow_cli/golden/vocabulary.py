"""The words a catalog is printed with: labels and their synonyms, products, colours, currencies, prose.

Kept apart from the geometry so that a new synonym or product kind is a one-line change, and so that
the truth can say exactly which string was printed.
"""

from __future__ import annotations

from dataclasses import dataclass

FIELDS = ("model", "product_name", "size", "material", "color", "price")

LABELS: dict[str, dict[str, tuple[str, ...]]] = {
    "model": {"zh": ("型号", "货号", "编号"), "en": ("Model", "Item No.", "Art. No.")},
    "product_name": {"zh": ("品名", "名称", "产品名称"), "en": ("Name", "Product", "Description")},
    "size": {"zh": ("规格", "尺寸"), "en": ("Size", "Dimensions")},
    "material": {"zh": ("材质", "材料"), "en": ("Material",)},
    "color": {"zh": ("颜色", "色彩"), "en": ("Color", "Colour")},
    "price": {"zh": ("价格", "单价", "零售价"), "en": ("Price", "Unit Price", "Retail Price")},
}
PICTURE_LABEL = {"zh": "图片", "en": "Photo"}

# Price formats by language; ``{}`` is the decimal amount. The last style of each prints no currency.
PRICE_STYLES: dict[str, tuple[str, ...]] = {
    "zh": ("¥{}", "￥{}", "{}元", "RMB {}"),
    "en": ("${}", "USD {}", "US$ {}", "RMB {}"),
    "mixed": ("¥{}", "RMB {}", "{}元", "${}"),
}
NO_CURRENCY = "{}"
UNIT_HINTS = {"zh": "（元）", "en": " (USD)"}
NO_PRICE_MARKS = {"zh": ("询价", "电询", "—"), "en": ("On request", "POA", "—")}


@dataclass(frozen=True)
class ProductKind:
    """A kind of product: its names, plausible sizes and materials, model prefix and picture motif."""

    zh: str
    en: str
    sizes: tuple[str, ...]
    materials: tuple[tuple[str, str], ...]
    prefix: str
    motif: str
    price_range: tuple[int, int]


_STEEL, _GLASS = ("304不锈钢", "304 Stainless Steel"), ("高硼硅玻璃", "Borosilicate Glass")
_CERAMIC = ("陶瓷", "Ceramic")
_BAMBOO, _SILICONE, _ABS = ("竹纤维", "Bamboo Fiber"), ("食品级硅胶", "Food-grade Silicone"), ("ABS塑料", "ABS Plastic")
_COTTON, _OAK, _ALU = ("纯棉", "Cotton"), ("橡木", "Oak"), ("铝合金", "Aluminium Alloy")
_IRON, _NYLON, _PU = ("铸铁", "Cast Iron"), ("尼龙", "Nylon"), ("PU皮革", "PU Leather")

SECTIONS: dict[str, tuple[tuple[str, str], tuple[ProductKind, ...]]] = {
    "kitchen": (("厨房用品", "Kitchenware"), (
        ProductKind("保温杯", "Vacuum Flask", ("350ml", "500ml", "750ml"), (_STEEL,), "VF", "bottle", (39, 189)),
        ProductKind("玻璃水杯", "Glass Tumbler", ("300ml", "450ml"), (_GLASS,), "GT", "cup", (12, 69)),
        ProductKind("马克杯", "Mug", ("320ml", "400ml"), (_CERAMIC,), "MG", "cup", (15, 88)),
        ProductKind("不粘煎锅", "Non-stick Frying Pan", ("24cm", "28cm", "32cm"), (_IRON, _ALU), "FP", "pan",
                    (79, 399)),
        ProductKind("砧板", "Cutting Board", ("30×20cm", "40×28cm"), (_BAMBOO, _OAK), "CB", "board", (29, 159)),
        ProductKind("保鲜盒", "Food Container", ("650ml", "1000ml", "1500ml"), (_GLASS, _SILICONE), "FC", "box",
                    (19, 99)),
    )),
    "home": (("家居收纳", "Home & Storage"), (
        ProductKind("收纳箱", "Storage Box", ("35×25×20cm", "45×32×28cm"), (_ABS, _BAMBOO), "SB", "box", (29, 139)),
        ProductKind("抱枕", "Cushion", ("45×45cm", "50×50cm"), (_COTTON,), "CU", "cushion", (25, 120)),
        ProductKind("台灯", "Desk Lamp", ("12inch", "15inch"), (_ALU, _ABS), "DL", "lamp", (89, 499)),
        ProductKind("衣架", "Coat Hanger", ("42cm", "45cm"), (_OAK, _ALU), "CH", "board", (9, 49)),
        ProductKind("毛巾", "Towel", ("34×76cm", "70×140cm"), (_COTTON,), "TW", "cushion", (15, 79)),
    )),
    "outdoor": (("户外运动", "Outdoor & Sports"), (
        ProductKind("哑铃", "Dumbbell", ("2kg", "5kg", "10kg"), (_IRON,), "DB", "dumbbell", (49, 399)),
        ProductKind("瑜伽垫", "Yoga Mat", ("183×61cm", "183×80cm"), (("TPE", "TPE"), _PU), "YM", "board", (59, 259)),
        ProductKind("运动水壶", "Sports Bottle", ("600ml", "1000ml"), (_ABS, _STEEL), "SP", "bottle", (25, 129)),
        ProductKind("双肩背包", "Backpack", ("20L", "35L"), (_NYLON,), "BP", "bag", (129, 599)),
        ProductKind("壶铃", "Kettlebell", ("8kg", "12kg", "16kg"), (_IRON,), "KB", "ball", (99, 459)),
    )),
    "digital": (("数码配件", "Digital Accessories"), (
        ProductKind("平板保护套", "Tablet Case", ("10.9inch", "11inch", "12.9inch"), (_PU,), "TC", "board",
                    (49, 199)),
        ProductKind("蓝牙音箱", "Bluetooth Speaker", ("10W", "20W"), (_ABS, _ALU), "BS", "ball", (129, 899)),
        ProductKind("显示器支架", "Monitor Arm", ("17-27inch", "17-32inch"), (_ALU,), "MA", "lamp", (159, 699)),
        ProductKind("数据线", "USB-C Cable", ("1m", "2m"), (_NYLON,), "UC", "box", (9, 59)),
    )),
}

COLORS: tuple[tuple[str, str, str], ...] = (
    ("白色", "White", "WH"), ("黑色", "Black", "BK"), ("红色", "Red", "RD"), ("蓝色", "Blue", "BL"),
    ("灰色", "Grey", "GY"), ("粉色", "Pink", "PK"), ("绿色", "Green", "GN"), ("米色", "Beige", "BG"),
)
ADJECTIVES: dict[str, tuple[str, ...]] = {
    "zh": ("简约", "北欧", "经典", "便携", "加厚", "迷你", "家用", "商务", "轻奢", "复古"),
    "en": ("Classic", "Compact", "Deluxe", "Travel", "Nordic", "Pro", "Mini", "Urban", "Retro", "Essential"),
}

BRANDS: tuple[tuple[str, str], ...] = (
    ("禾木家居", "HEMU HOME"), ("青岚生活", "QINGLAN LIVING"), ("北辰日用", "BEICHEN"), ("云朵良品", "CLOUD GOODS"),
    ("森屿", "FORESTISLE"), ("橙光", "ORANGE RAY"),
)
CATALOG_TITLES = {"zh": ("{year} 春夏产品目录", "{year} 新品图册", "{year} 经销商价目表"),
                  "en": ("{year} Spring/Summer Catalog", "{year} New Arrivals", "{year} Dealer Price List")}
SUBTITLES = {"zh": ("品质生活 · 从细节开始", "源头工厂 · 批发零售", "全场包邮 · 量大从优"),
             "en": ("Quality living starts with details", "Factory direct · wholesale and retail",
                    "Free shipping on every order")}
CONTACTS = {"zh": ("地址：浙江省义乌市稠城街道工业园 88 号", "电话：0579-8512 3366", "网址：www.example-catalog.cn"),
            "en": ("Add: No. 88 Industrial Park, Yiwu, Zhejiang, China", "Tel: +86 579 8512 3366",
                   "Web: www.example-catalog.com")}
CONTENTS_TITLE = {"zh": "目录", "en": "Contents"}
STORY_TITLE = {"zh": "品牌故事", "en": "Our Story"}
PAGE_MARK = {"zh": "第 {} 页", "en": "Page {}"}
CONTINUED = {"zh": "（续表）", "en": "(continued)"}
TABLE_NOTES = {"zh": ("以上价格含税，不含运费。", "价格如有变动，以最新报价为准。"),
               "en": ("Prices include VAT, shipping excluded.", "Prices subject to change without notice.")}

HEADLINES = {"zh": ("新品上市", "限时特惠", "人气推荐", "夏日焕新", "匠心之选"),
             "en": ("New Arrivals", "Limited Offer", "Best Sellers", "Summer Refresh", "Crafted with Care")}
MARKETING = {
    "zh": ("精选优质原材料，严格品控，每一件产品都经过多道工序检验，只为给您带来安心的使用体验。",
           "简约设计融入日常生活，兼顾颜值与实用，送礼自用两相宜。",
           "支持批量定制，可印制企业标志，欢迎来电咨询合作细节。",
           "工厂直供，省去中间环节，让利于每一位合作伙伴。"),
    "en": ("Made from carefully selected materials and checked at every step, so that each piece is a pleasure "
           "to use.",
           "Clean design for everyday life: good looking, practical, and a fine gift.",
           "Custom logos and bulk orders are welcome; contact our sales team for details.",
           "Factory direct prices with no middlemen, passed on to every partner."),
}
STORY = {
    "zh": ("我们的故事始于一间小小的作坊。二十年来，我们坚持用心做好每一件日用品，从选材到包装，每个环节都亲力亲为。",
           "我们相信，好的产品应该经得起时间的考验。因此，我们与国内外多家检测机构合作，确保产品安全可靠。",
           "如今，我们的产品远销三十多个国家和地区，服务数千家经销商与零售客户。",
           "未来，我们将继续以匠心与创新，为更多家庭带来美好生活。"),
    "en": ("Our story began in a small workshop. For twenty years we have cared about every everyday item we make, "
           "from the choice of materials to the packaging.",
           "We believe a good product should stand the test of time, which is why we work with independent "
           "laboratories to keep every item safe.",
           "Today our products reach more than thirty countries and thousands of dealers and retailers.",
           "We will keep combining craft and new ideas to bring better living to more homes."),
}
STORY_MENTION = {"zh": "本季主推 {model} {name}，{size}大容量，{material}材质，限时仅售 {price}。",
                 "en": "This season we recommend the {model} {name}: {size}, {material}, now only {price}."}


def bilingual(zh: str, en: str) -> str:
    """How a mixed-language catalog prints a label: both words, Chinese first."""
    return f"{zh}/{en}"
