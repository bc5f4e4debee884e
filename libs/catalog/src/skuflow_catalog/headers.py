"""Table headers and attribute labels in the languages catalogs are printed in.

A header cell names what its column holds. Catalogs print it in Chinese, English or both
('型号/Model'), and just as often in Spanish, Portuguese, Russian, Hungarian, German, Japanese…
Besides the six SKU attributes, a column may hold things that are *not* the product's identity
(a package, a quantity, a row number, a barcode): naming those matters as much, because their
cells look like codes ('SOP16', '4006381333931') and would otherwise be read as the model.

``header_role`` scores how well a cell names a role: 1.0 when the whole cell is a known term,
0.8 when a known term is one part of it ('Unit Price USD', 'Цена, руб.', '单价（元）'), and 0.6
for a bare currency ('USD', '€', '(元)'), which heads price columns in many price lists.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from skuflow_catalog.units import UNITS

Role = Literal["model", "product_name", "size", "material", "color", "price", "picture", "package", "quantity",
               "unit", "index", "barcode", "brand", "remark", "stock", "weight", "category", "measure"]
ATTRIBUTE_ROLES: tuple[Role, ...] = ("model", "product_name", "size", "material", "color", "price")

# Model terms that name a product's designation rather than the number it is ordered by: where a list
# prints both ('Type | Art-Num', '型号 | 订货号'), the order number is the model.
DESIGNATIONS = frozenset({"型号", "型號", "产品型号", "model", "models", "model name", "type", "typ", "style", "modelo",
                          "modèle", "modell", "modello", "модель", "тип", "típus", "modellnév", "tip",
                          "typenbezeichnung", "型式", "形式", "모델", "모델명"})

# Terms per role, one tuple per language (zh, en, es, pt, fr, de, it, ru, hu, pl, tr, ja, ko, vi, then uz
# (Cyrillic and Latin) and id/ms where a role has Uzbek or Indonesian and Malay terms).
VOCABULARY: dict[Role, tuple[tuple[str, ...], ...]] = {
    "model": (
        ("型号", "货号", "款号", "编号", "编码", "产品编号", "产品型号", "商品编号", "商品编码", "物料编码", "物料号",
         "料号", "规格型号", "型号规格", "品号", "订货号", "订购型号", "订货型号", "代码", "产品代码", "零件号", "件号",
         "货品编号", "款式编号", "型號", "貨號", "編號", "产品编码", "订购编号", "图号", "圖號", "零件图号", "代碼",
         "碼別"),
        ("model", "model no", "model number", "models", "item", "item no", "item number", "item code", "item #",
         "sku", "art no", "article no", "article number", "code", "product code", "part no", "part number", "part #",
         "p/n", "pn", "cat no", "catalog no", "catalogue no", "catalog number", "ref", "ref no", "reference",
         "order no", "order code", "ordering code", "order number", "style no", "style", "type", "product no",
         "product number", "mfr part", "stock no", "stock code", "us item no", "item id", "product id", "model name",
         "part", "catalog #", "cat #", "no de ref", "drawing no", "drawing number", "dwg no", "material no",
         "material number", "material code"),
        ("código", "cód", "referencia", "ref", "modelo", "código de producto", "número de parte", "clave",
         "código artículo", "cod", "cod art", "código producto", "n° de parte", "artículo", "art"),
        ("código", "referência", "modelo", "artigo", "cód", "código do produto", "ref"),
        ("référence", "réf", "code", "code article", "modèle", "n° article", "référence article"),
        ("art nr", "art-nr", "artikelnummer", "artikel-nr", "artikelnr", "bestellnummer", "best-nr", "best nr", "typ",
         "modell", "teilenummer", "sachnummer", "artikel nr", "bestell-nr", "typenbezeichnung", "artikel", "art",
         "art num", "zeichnungsnummer", "zeichnungs-nr", "zeichnung nr", "materialnummer", "material-nr", "mat-nr"),
        ("codice", "cod", "articolo", "modello", "riferimento", "rif", "codice articolo", "cod art", "codice prodotto"),
        ("артикул", "код", "модель", "код товара", "каталожный номер", "арт", "обозначение", "тип", "марка",
         "код продукции", "номер по каталогу", "no чертежа", "номер чертежа", "чертеж", "чертёж"),
        ("cikkszám", "termékkód", "kód", "típus", "modell", "cikkszam", "cikk szám", "azonosító", "rendelési szám",
         "modellnév", "típusnév"),
        ("kod", "indeks", "symbol", "nr katalogowy", "numer katalogowy", "model", "kod produktu", "nr art", "typ",
         "kod towaru", "kód", "objednací číslo", "katalogové číslo", "katalógové číslo", "obj č"),  # pl, cs, sk
        ("ürün kodu", "kod", "model", "stok kodu", "referans", "ürün no", "kodu", "malzeme kodu", "malzeme no", "tip"),
        ("品番", "型番", "型式", "商品コード", "製品番号", "商品番号", "部品番号", "コード", "形式", "品番号",
         "製品コード"),
        ("품번", "모델", "모델명", "제품코드", "상품코드", "품목코드", "코드", "모델번호", "제품번호"),
        ("mã", "mã sản phẩm", "mã hàng", "mã sp", "mã số", "ký hiệu", "mã hh", "model"),
        ("артикул", "kod", "artikul", "mahsulot kodi", "маҳсулот коди", "махсулот коди"),
        ("kode", "kode barang", "kode produk", "no part", "nomor part", "tipe", "kod produk", "kod barang"),
    ),
    "product_name": (
        ("品名", "名称", "产品名称", "商品名称", "货品名称", "产品", "商品", "物料名称", "描述", "产品描述", "名稱",
         "品名规格", "产品名", "药品名称", "通用名", "通用名称", "器械名称", "商品名", "品项", "品項", "项目", "項目"),
        ("name", "product", "product name", "description", "item description", "desc", "product description",
         "title", "designation", "item name", "descriptions", "product title"),
        ("descripción", "nombre", "producto", "denominación", "descripción del producto", "nombre del producto"),
        ("descrição", "nome", "produto", "denominação", "descrição do produto", "nome do produto"),
        ("désignation", "description", "nom", "produit", "libellé", "nom du produit"),
        ("bezeichnung", "beschreibung", "artikelbezeichnung", "produkt", "name", "produktname"),
        ("descrizione", "nome", "prodotto", "denominazione", "descrizione articolo"),
        ("наименование", "название", "описание", "товар", "наименование товара", "продукция", "изделие",
         "наименование продукции", "продукт"),  # 'продукт' in Russian and Bulgarian
        ("megnevezés", "termék", "terméknév", "leírás", "név", "megnevezes", "termék neve"),
        ("nazwa", "opis", "produkt", "nazwa produktu", "towar", "nazwa towaru", "název", "názov", "popis",
         "název produktu", "názov produktu", "tovar"),  # pl, cs, sk
        ("ürün", "ürün adı", "açıklama", "ad", "tanım", "ürün açıklaması"),
        ("品名", "商品名", "製品名", "名称", "品目", "商品名称"),
        ("품명", "제품명", "상품명", "품목", "명칭", "제품"),
        ("tên", "tên sản phẩm", "tên hàng", "sản phẩm", "mô tả", "diễn giải", "tên hàng hóa"),
        ("номи", "номланиши", "маҳсулот номи", "махсулот номи", "товар номи", "nomi", "nomlanishi",
         "mahsulot nomi", "tovar nomi"),
        ("nama", "nama barang", "nama produk", "deskripsi", "produk", "barang", "nama item"),
    ),
    "price": (
        ("价格", "单价", "售价", "零售价", "批发价", "出厂价", "含税价", "含税单价", "市场价", "报价", "价",
         "建议零售价",
         "会员价", "优惠价", "促销价", "标准价", "参考价", "零售价格", "价格(元)", "单价(元)", "價格", "單價", "销售价",
         "代理价", "经销价", "面价", "未税单价", "金额", "团购价", "特价", "售價", "定價", "批發價", "價錢", "零售價",
         "報價", "特價", "優惠價", "费用", "費用", "收费", "收費"),
        ("price", "unit price", "retail price", "list price", "net price", "msrp", "rrp", "our price", "sale price",
         "wholesale", "wholesale price", "dealer price", "price each", "price ea", "prices", "cost", "retail",
         "unit cost", "each", "srp", "map", "price per unit", "trade price", "net", "we buy", "we sell", "buy", "sell",
         "buying", "selling", "bid", "ask", "rate", "unit rate", "net rate", "list rate", "dealer rate", "mrp",
         "amount", "fob", "fob price", "ex factory", "ex factory price", "dealer", "master dealer",
         "distributor price"),
        ("precio", "precio unitario", "pvp", "p v p", "precio venta", "importe", "precio público", "precio lista",
         "precio mayorista", "precio de lista", "valor", "costo", "precio sin iva", "precio con iva", "p unit",
         "compra", "venta"),
        ("preço", "preço unitário", "valor", "preço de venda", "valor unitário", "preço unit", "preço final", "venda"),
        ("prix", "prix unitaire", "prix ht", "prix ttc", "tarif", "p u", "prix public", "montant", "prix net", "achat",
         "vente"),
        ("preis", "einzelpreis", "stückpreis", "listenpreis", "vk", "vk-preis", "uvp", "preis/stk", "nettopreis",
         "bruttopreis", "betrag", "ek-preis", "vk preis", "ankauf", "verkauf", "ek"),
        ("prezzo", "prezzo unitario", "listino", "prezzo netto", "prezzo al pubblico", "importo", "prezzo listino",
         "acquisto", "vendita", "compro", "vendo", "prezzo acquisto", "prezzo vendita", "valore"),
        ("цена", "стоимость", "цена за шт", "розница", "опт", "оптовая цена", "розничная цена", "цена руб",
         "цена с ндс", "цена без ндс", "сумма", "цена, руб", "оптовая", "розничная", "покупка", "продажа", "розн",
         "нал", "б/нал", "безнал", "наличные", "безналичные",  # the price paid in cash, and by transfer
         "ціна", "вартість", "ціна грн"),
        ("ár", "egységár", "nettó ár", "bruttó ár", "listaár", "fogyasztói ár", "nettó", "bruttó", "eladási ár",
         "nettó egységár", "bruttó egységár", "ar"),
        ("cena", "cena netto", "cena brutto", "cena jedn", "wartość", "cena jednostkowa", "cena katalogowa",
         "cena s dph", "cena bez dph", "cena za kus", "maloobchodná cena", "maloobchodní cena"),  # pl, cs, sk
        ("fiyat", "birim fiyat", "liste fiyatı", "fiyatı", "tutar", "satış fiyatı", "fiyat listesi",
         "kdv dahil", "kdv hariç"),
        ("価格", "単価", "定価", "販売価格", "税込価格", "本体価格", "希望小売価格", "税抜価格", "金額", "価格(税込)",
         "税抜", "税込", "上代", "下代"),
        ("가격", "단가", "판매가", "소비자가", "정가", "공급가", "금액", "소비자가격", "판매가격"),
        ("giá", "đơn giá", "giá bán", "giá lẻ", "giá sỉ", "thành tiền", "giá bán lẻ", "giá niêm yết"),
        ("нархи", "нарх", "нархи сўм", "narxi", "narx", "narxi so'm", "баҳоси", "bahosi"),
        ("harga", "harga satuan", "harga jual", "harga ecer", "harga grosir", "harga otr", "harga runcit",
         "harga toko"),
    ),
    "size": (
        ("规格", "尺寸", "尺码", "规格尺寸", "外形尺寸", "容量", "规格参数", "尺寸(mm)", "規格"),
        ("size", "dimensions", "dimension", "spec", "specification", "specs", "capacity", "volume", "sizes",
         "measurements", "dims"),
        ("medida", "medidas", "tamaño", "dimensiones", "especificación", "capacidad", "talla"),
        ("tamanho", "medida", "medidas", "dimensões", "especificação", "capacidade"),
        ("taille", "dimensions", "format", "capacité", "contenance"),
        ("größe", "abmessung", "abmessungen", "maße", "format", "inhalt"),
        ("misura", "misure", "dimensioni", "formato", "capacità", "taglia"),
        ("размер", "размеры", "габариты", "объем", "объём", "формат", "габаритные размеры"),
        ("méret", "méretek", "kiszerelés", "űrtartalom"),
        ("rozmiar", "wymiary", "pojemność", "format"),
        ("ebat", "boyut", "ölçü", "ölçüsü", "beden", "kapasite", "ebatlar"),
        ("サイズ", "寸法", "規格", "容量"),
        ("사이즈", "크기", "규격", "치수", "용량"),
        ("kích thước", "quy cách", "kích cỡ", "dung tích", "size"),
        ("ўлчовлари", "ўлчами", "ўлчам", "ўлчамлари", "o'lchami", "o'lchamlari", "o'lchovlari", "olchami"),
    ),
    "color": (
        ("颜色", "色彩", "花色", "色", "顏色"),
        ("color", "colour", "colors", "colours", "finish"),
        ("color", "colores", "acabado"),
        ("cor", "cores"),
        ("couleur", "coloris", "finition"),
        ("farbe", "farben", "ausführung"),
        ("colore", "colori", "finitura"),
        ("цвет", "цвета", "окрас"),
        ("szín", "színek"),
        ("kolor", "kolory"),
        ("renk", "renkler"),
        ("色", "カラー", "色名"),
        ("색상", "색깔", "컬러"),
        ("màu", "màu sắc"),
    ),
    "material": (
        ("材质", "材料", "面料", "材質"),
        ("material", "materials", "fabric"),
        ("material", "materiales"),
        ("material", "materiais"),
        ("matériau", "matière", "matériaux"),
        ("material", "werkstoff"),
        ("materiale", "materiali"),
        ("материал", "материалы"),
        ("anyag", "alapanyag"),
        ("materiał", "materiały"),
        ("malzeme",),
        ("素材", "材質"),
        ("재질", "소재"),
        ("chất liệu", "vật liệu"),
    ),
    "picture": (
        ("图片", "图", "产品图片", "照片", "图示", "產品圖片", "外观", "实物图"),
        ("photo", "picture", "image", "img", "pic", "photos", "images"),
        ("foto", "imagen", "fotografía"),
        ("imagem", "foto"),
        ("photo", "image", "visuel"),
        ("bild", "foto", "abbildung"),
        ("foto", "immagine"),
        ("фото", "изображение", "рисунок", "фотография"),
        ("kép", "fotó"),
        ("zdjęcie", "foto", "obrazek"),
        ("resim", "görsel", "fotoğraf"),
        ("写真", "画像", "イメージ"),
        ("사진", "이미지"),
        ("hình", "hình ảnh", "ảnh"),
        ("расм", "rasm", "rasmi", "кўриниши", "маҳсулот кўриниши", "махсулот кўриниши", "ko'rinishi",
         "mahsulot ko'rinishi"),
    ),
    "package": (
        ("封装", "封装形式", "封裝", "包装形式"),
        ("package", "pkg", "case", "package type", "packages"),
        ("encapsulado", "empaque", "cápsula"),
        ("encapsulamento",),
        ("boîtier",),
        ("gehäuse", "bauform"),
        ("contenitore",),
        ("корпус",),
        ("tok",),
        ("obudowa",),
        ("kılıf",),
        ("パッケージ",),
        ("패키지",),
        ("vỏ",),
    ),
    "quantity": (
        ("数量", "起订量", "装箱数", "箱规", "包装", "包装数量", "最小包装", "件数", "箱装", "每箱"),
        ("qty", "quantity", "moq", "pcs", "packing", "pack", "pack size", "box qty", "carton", "ctn", "pcs/ctn",
         "min order", "order qty", "case pack", "inner", "master"),
        ("cantidad", "empaque", "unidades", "cant"),
        ("quantidade", "qtd", "embalagem"),
        ("quantité", "qté", "conditionnement", "colisage"),
        ("menge", "vpe", "verpackungseinheit", "stück", "stk"),
        ("quantità", "qtà", "confezione", "pezzi", "quantità ordinata"),
        ("количество", "кол-во", "упаковка", "кол", "шт в упак"),
        ("mennyiség", "db", "csomagolás", "kiszerelés db"),
        ("ilość", "opakowanie", "szt"),
        ("adet", "miktar", "koli"),
        ("数量", "入数", "入り数"),
        ("수량", "입수", "포장"),
        ("số lượng", "sl", "quy cách đóng gói"),
    ),
    "unit": (
        ("单位", "計量單位"),
        ("unit", "uom", "units"),
        ("unidad", "ud", "u m"),
        ("unidade", "un", "und"),
        ("unité",),
        ("einheit", "me", "eh"),
        ("unità", "um"),
        ("ед изм", "ед", "единица", "ед измерения"),
        ("egység", "me", "menny egys"),
        ("j m", "jm", "jednostka"),
        ("birim", "br"),
        ("単位",),
        ("단위",),
        ("đơn vị", "đvt", "đơn vị tính"),
    ),
    "index": (
        ("序号", "序", "编号序", "項次", "序號"),
        ("no", "#", "s/n", "sl no", "sr no", "item #no", "line", "pos", "position", "sn", "s no", "sno"),
        ("nº", "n°", "no", "item", "núm"),
        ("nº", "n°", "item"),
        ("n°", "no"),
        ("nr", "pos", "lfd nr", "position"),
        ("nr", "pos"),
        ("№", "п/п", "№ п/п", "n п/п", "no"),
        ("sorszám", "ssz", "sor"),
        ("lp", "nr", "l p"),
        ("sıra", "no", "sıra no"),
        ("番号", "no"),
        ("순번", "번호", "no"),
        ("stt", "tt"),
    ),
    "barcode": (
        ("条码", "条形码", "国际条码", "条码号"),
        ("ean", "ean13", "ean code", "barcode", "gtin", "upc", "upc code", "ean-13", "bar code"),
        ("código de barras", "ean"),
        ("código de barras", "ean"),
        ("code barre", "gencod", "ean"),
        ("ean", "ean-code", "strichcode"),
        ("codice a barre", "ean"),
        ("штрихкод", "штрих-код", "ean"),
        ("vonalkód", "ean", "vonalkod"),
        ("kod ean", "kod kreskowy", "ean"),
        ("barkod", "ean"),
        ("jan", "janコード", "jan code"),
        ("바코드",),
        ("mã vạch",),
    ),
    "brand": (
        ("品牌", "厂家", "生产厂家", "厂商", "品牌名称"),
        ("brand", "manufacturer", "make", "mfr", "vendor"),
        ("marca", "fabricante"),
        ("marca", "fabricante"),
        ("marque", "fabricant"),
        ("marke", "hersteller"),
        ("marca", "produttore"),
        ("бренд", "производитель", "марка производителя", "изготовитель"),
        ("márka", "gyártó"),
        ("marka", "producent"),
        ("marka", "üretici"),
        ("ブランド", "メーカー"),
        ("브랜드", "제조사"),
        ("thương hiệu", "hãng", "nhà sản xuất"),
    ),
    "remark": (
        ("备注", "说明", "備註", "注"),
        ("remark", "remarks", "note", "notes", "comment", "comments", "applications", "application", "features",
         "feature", "usage"),
        ("observaciones", "obs", "notas", "aplicación", "nota"),
        ("observações", "obs", "aplicação", "notas"),
        ("remarques", "observations", "application"),
        ("bemerkung", "anmerkung", "hinweis", "anwendung", "bemerkungen"),
        ("note", "osservazioni", "applicazione"),
        ("примечание", "примечания", "применение", "комментарий"),
        ("megjegyzés", "alkalmazás"),
        ("uwagi", "zastosowanie"),
        ("not", "notlar", "açıklamalar"),
        ("備考", "用途"),
        ("비고", "용도"),
        ("ghi chú", "ứng dụng"),
        ("keterangan", "catatan"),
    ),
    "stock": (
        ("库存", "现货", "交期", "货期"),
        ("stock", "availability", "in stock", "lead time", "status"),
        ("existencia", "disponibilidad", "stock"),
        ("estoque", "disponibilidade"),
        ("stock", "disponibilité"),
        ("lager", "verfügbarkeit", "lieferzeit"),
        ("disponibilità", "giacenza"),
        ("наличие", "остаток", "срок поставки"),
        ("készlet", "raktár"),
        ("stan", "dostępność"),
        ("stok", "stok durumu"),
        ("在庫", "納期"),
        ("재고", "현황", "재고현황"),
        ("tồn kho",),
    ),
    "weight": (
        ("重量", "净重", "毛重", "重量(kg)", "重量(g)"),
        ("weight", "net weight", "gross weight", "n w", "g w", "wt", "nw", "gw"),
        ("peso", "peso neto"),
        ("peso", "peso líquido"),
        ("poids",),
        ("gewicht",),
        ("peso",),
        ("вес", "масса", "вес нетто"),
        ("súly", "tömeg"),
        ("waga", "masa"),
        ("ağırlık",),
        ("重さ", "重量"),
        ("무게", "중량"),
        ("trọng lượng", "khối lượng"),
    ),
    "category": (
        ("类别", "分类", "类型", "系列", "品类"),
        ("category", "series", "family", "group", "class", "range"),
        ("categoría", "familia", "serie", "línea", "grupo"),
        ("categoria", "família", "série", "linha", "grupo"),
        ("catégorie", "famille", "série", "gamme"),
        ("kategorie", "serie", "gruppe", "familie"),
        ("categoria", "famiglia", "serie", "linea"),
        ("категория", "серия", "группа"),
        ("kategória", "sorozat", "csoport"),
        ("kategoria", "seria", "grupa"),
        ("kategori", "seri", "grup"),
        ("カテゴリ", "シリーズ", "分類"),
        ("카테고리", "시리즈", "분류", "구분", "종류"),
        ("danh mục", "loại", "nhóm", "dòng"),
    ),
}
# Where one term names two roles in different languages, the first role listed here wins.
ROLE_PRIORITY: tuple[Role, ...] = ("model", "price", "product_name", "size", "color", "material", "picture",
                                   "package", "barcode", "quantity", "unit", "index", "brand", "weight", "stock",
                                   "category", "remark")
CURRENCIES = ("¥", "￥", "$", "us$", "usd", "€", "eur", "£", "gbp", "₽", "руб", "р", "rub", "грн", "uah", "ft", "huf",
              "r$", "brl", "zł", "zl", "pln", "₺", "tl", "try", "円", "원", "₩", "đ", "₫", "vnd", "元", "rmb", "cny",
              "kč", "czk", "chf", "₹", "rs", "inr", "$us", "mxn", "ars", "clp", "cop", "pen", "aud", "cad", "sek",
              "nok", "dkk", "kr", "lei", "ron", "лв", "bgn", "₴", "hk$", "hkd", "nt$", "twd", "s$", "sgd", "euro",
              "rp", "idr", "rm", "myr", "php", "₱", "thb", "฿", "tk", "৳", "bdt", "nt", "ntd", "¤", "jpy", "krw",
              "aed", "dhs", "sar", "qar", "kwd", "kzt", "тг", "uzs", "сум", "ksh", "zar", "ngn", "egp",
              "pkr", "lkr", "ils", "nzd", "uyu", "pyg", "gtq", "dop", "rsd", "byn")
UNIT = re.compile(rf"(?:{UNITS})")
CURRENCY_SCORE = 0.6
PART_SCORE = 0.8
_PARENS = re.compile(r"[(（\[【]([^)）\]】]{0,16})[)）\]】]")
_SEPARATORS = re.compile(r"[^\w#№$€£¥￥₽₺₩₫₹/]+")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")  # kana, ideographs, Hangul


@dataclass(frozen=True)
class HeaderMatch:
    role: Role
    score: float
    term: str


def fold(text: str) -> str:
    """Case- and accent-insensitive form (NFKC, casefold, combining marks dropped; CJK kept). Turkish
    dotless 'ı' is 'i' too: capitals ('FİYATI') and OCR do not keep the two apart."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold().replace("ı", "i"))
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


_SPACED_CJK = re.compile(rf"(?<={CJK.pattern})\s+(?={CJK.pattern})")


def _tokens(text: str) -> tuple[str, ...]:
    """A header's words. Chinese, Japanese and Korean headers are letter-spaced to fill their cell
    ('型 号', '品　名', '单  价'); those spaces are typography, not word breaks."""
    text = _SPACED_CJK.sub("", text)
    return tuple(token for token in _SEPARATORS.split(fold(text).replace(".", " ")) if token)


@cache
def _index() -> dict[tuple[str, ...], Role]:
    """Every term's token sequence → its role (the higher-priority role when two share a term)."""
    index: dict[tuple[str, ...], Role] = {}
    for role in reversed(ROLE_PRIORITY):
        for language in VOCABULARY[role]:
            for term in language:
                index[_tokens(term)] = role
    return index


PLURAL_ENDINGS = ("es", "s")  # en, es, pt, fr plurals ('VALORES', 'Precios', 'Prices') of the vocabulary's terms


def _known(tokens: tuple[str, ...]) -> tuple[str, ...] | None:
    """The vocabulary's spelling of a whole header: as printed, or with its plural words made singular
    (only whole: a section heading 'On Guard™ Products' names no column)."""
    index = _index()
    if tokens in index:
        return tokens
    for ending in PLURAL_ENDINGS:
        singular = tuple(t.removesuffix(ending) if t.isalpha() and len(t) > len(ending) + 2 else t for t in tokens)
        if singular != tokens and singular in index:
            return singular
    return None


_CURRENCY_TOKENS = frozenset(_tokens(c)[0] for c in CURRENCIES if _tokens(c))


def _is_currency(tokens: tuple[str, ...]) -> bool:
    return bool(tokens) and all(token in _CURRENCY_TOKENS for token in tokens)


def is_currency(text: str) -> bool:
    """A cell printing only a currency ('€', 'RMB', '(元)'): set apart from the amount beside it."""
    return _is_currency(_tokens(text.strip("()（） ")))


# German, Dutch and Nordic write a kind of price as one word ending in the word for price
# ('Grundpreis', 'Nettoprijs', 'Enhetspris', 'Ovh-hinta'): the word's head names the column.
COMPOUND_HEADS: dict[str, Role] = {"preis": "price", "prijs": "price", "pris": "price", "hinta": "price"}


@cache
def _cjk_terms() -> list[tuple[str, tuple[str, ...], Role]]:
    """The vocabulary's terms written in CJK of two characters or more, as found inside a token."""
    return [(text, term, role) for term, role in _index().items()
            if len(text := "".join(term)) >= 2 and CJK.search(text)]


def _best_part(tokens: tuple[str, ...]) -> tuple[Role, tuple[str, ...]] | None:
    """The longest term found as whole consecutive tokens (of terms as long, the one whose role comes
    first in ``ROLE_PRIORITY``: 'Birim Fiyatı', the unit's price, names a price, not a unit), or in CJK
    text (written without spaces) at the start or end of a token ('含税单价', '产品名称及规格'; not '品目'
    inside '药品目录')."""
    index = _index()
    for size in range(len(tokens), 0, -1):
        parts = [tokens[start:start + size] for start in range(len(tokens) - size + 1)]
        if named := [(index[part], part) for part in parts if part in index]:
            return min(named, key=lambda hit: ROLE_PRIORITY.index(hit[0]))
    found: tuple[Role, tuple[str, ...]] | None = None
    for token in tokens:
        if not CJK.search(token):
            continue
        for text, term, role in _cjk_terms():
            if (token.startswith(text) or token.endswith(text)) and (
                    found is None or len(text) > len("".join(found[1]))):
                found = (role, term)
    if found is None:
        found = next(((role, (token,)) for token in tokens for head, role in COMPOUND_HEADS.items()
                      if token.endswith(head) and len(token) >= len(head) + 3), None)
    return found


@lru_cache(maxsize=8192)
def _measured(text: str) -> bool:
    """Does the header give a unit of measure ('Magasság (mm)', 'Flash（KB）', 'Вес, кг')?"""
    hints = [*_PARENS.findall(text), *re.findall(r",\s*([^,]{1,8})$", text),
             *(line.strip(" ,;:()（）") for line in text.splitlines()[1:])]  # 'Мощность,\nкВт': the unit's own line
    return any(UNIT.fullmatch(hint.strip().strip(".").casefold()) for hint in hints)


@lru_cache(maxsize=65536)
def header_role(text: str) -> HeaderMatch | None:
    """The role a header cell names, with how sure that is; None for anything else. A header that
    names nothing known but gives a unit of measure heads a measurement ('measure'). Cached: every
    cell of every row is asked whether it is a header word, and a table repeats its cells' texts."""
    match = _named(text)
    if (match is None or match.role in ("size", "quantity")) and _measured(text):
        return HeaderMatch("measure", CURRENCY_SCORE, text.strip()) if match is None else match
    return match


_PER_UNIT_HEADER = re.compile(r"(?:^|\s)(?P<currency>[^\s/\\]{1,6})\s*[/\\]\s*(?P<unit>[^\W\d_]{1,8})\.?(?=\s|$)")


def _per_unit_currency(text: str) -> bool:
    """A currency per unit heads the amounts below it: '€/Stk.', '元/个', 'USD/pc', 'Preis €/Stk.', 'руб\\шт'."""
    found = _PER_UNIT_HEADER.search(text.strip())
    return found is not None and _is_currency(_tokens(found["currency"]))


def _named(text: str) -> HeaderMatch | None:
    bare = _PARENS.sub(" ", text)
    tokens = _tokens(bare)
    if not tokens:
        inner = _tokens(" ".join(_PARENS.findall(text)))
        return HeaderMatch("price", CURRENCY_SCORE, " ".join(inner)) if _is_currency(inner) else None
    if len(tokens) > 6:  # a sentence, not a header
        return None
    index = _index()
    if (known := _known(tokens)) is not None:
        return HeaderMatch(index[known], 1.0, " ".join(known))
    if _per_unit_currency(bare):
        return HeaderMatch("price", CURRENCY_SCORE, " ".join(tokens))
    if "/" in text or "\n" in text:  # bilingual: '型号/Model', 'Size/尺寸'
        for piece in re.split(r"[/\n]", bare):
            piece_tokens = _tokens(piece)
            if piece_tokens in index and len(piece.strip()) > 1:  # 'N' of 'P/N' is half an abbreviation
                return HeaderMatch(index[piece_tokens], 1.0, " ".join(piece_tokens))
    if _is_currency(tokens):
        return HeaderMatch("price", CURRENCY_SCORE, " ".join(tokens))
    part = _best_part(tokens)
    return HeaderMatch(part[0], PART_SCORE, " ".join(part[1])) if part else None


def named_role(text: str) -> Role | None:
    """The role a header cell names surely enough (a whole term, or a term as one part of it)."""
    match = header_role(text)
    return match.role if match is not None and match.score >= PART_SCORE else None


def attribute_for_label(label: str) -> str | None:
    """The SKU attribute (or 'picture') a label or header names exactly enough to read a value by it."""
    role = named_role(label)
    return role if role in (*ATTRIBUTE_ROLES, "picture") else None


LABELLED_VALUE = re.compile(r"^\s*([^:：]{1,30}?)\s*[:：]\s*(.+?)\s*$")


def labelled_value(line: str, roles: tuple[str, ...] | frozenset[str] = ATTRIBUTE_ROLES) -> tuple[str, str] | None:
    """'型号：A-100' → ('model', 'A-100'); 'Артикул: 12-34' → ('model', '12-34'); None otherwise. ``roles``:
    the labels that count (a cover's '品牌：…' and '系列：…' name the brand and the series)."""
    match = LABELLED_VALUE.match(line)
    if not match:
        return None
    found = header_role(match.group(1))
    if found is None or found.score < 1.0 or found.role not in roles:
        return None
    return found.role, match.group(2)


# A page titled like this lists products with prices, whether or not it prints codes.
PRICE_LIST_TITLES = re.compile(
    r"price\s*list|pricelist|list\s+of\s+prices|lista\s+de\s+precios|lista\s+de\s+pre[çc]os|tabela\s+de\s+pre[çc]os|"
    r"liste\s+de\s+prix|tarifs?\b|preisliste|listino(?:\s+prezzi)?|prijslijst|cennik|árlista|arlista|"
    r"fiyat\s+listesi|прайс|прейскурант|цены\s+на|ціни|价目表|价格表|报价单|价格清单|定价表|價目表|價格表|報價單|"
    r"価格表|料金表|가격표|단가표|bảng\s+giá", re.IGNORECASE)


def is_price_list_title(line: str) -> bool:
    """'PRICE LIST', 'Lista de precios 2024', '价目表', 'Прайс-лист': a title that says products and prices follow."""
    return len(line) <= 60 and PRICE_LIST_TITLES.search(line) is not None
