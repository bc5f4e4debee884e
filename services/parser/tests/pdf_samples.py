"""PDFs with the hard cases of real catalogs, built in the tests (nothing binary is committed)."""

import pymupdf

PRODUCT_TEXT = "品名：不锈钢保温杯\n型号：SF-0012\n规格：500ml\n价格：¥35.00"
PAGE = pymupdf.Rect(0, 0, 595, 842)


def picture(width: int = 700, height: int = 650, colorspace=pymupdf.csRGB, alpha: bool = False) -> pymupdf.Pixmap:
    pix = pymupdf.Pixmap(colorspace, pymupdf.IRect(0, 0, width, height), alpha)
    pix.set_rect(pix.irect, (40,) * pix.n)
    pix.set_rect(pymupdf.IRect(width // 4, height // 4, width // 2, height // 2), (200,) * pix.n)
    return pix


def born_digital(text: str = PRODUCT_TEXT, fontsize: float = 14) -> pymupdf.Document:
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), text, fontname="china-s", fontsize=fontsize)
    page.insert_image(pymupdf.Rect(60, 420, 300, 640), pixmap=picture(), keep_proportion=False)
    return doc


def scanned(text: str = PRODUCT_TEXT, dpi: int = 150) -> bytes:
    """A born-digital page rendered to a JPEG and put back as the page's only content."""
    source = born_digital(text)
    image = source[0].get_pixmap(dpi=dpi).tobytes("jpeg", jpg_quality=75)
    doc = pymupdf.open()
    doc.new_page(width=PAGE.width, height=PAGE.height).insert_image(PAGE, stream=image)
    return doc.tobytes()


def garbled(text: str = PRODUCT_TEXT) -> bytes:
    """Text in an embedded CJK font whose ToUnicode map is removed: it extracts as nonsense."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)
    page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), text, fontname="F0", fontsize=14)
    doc = pymupdf.open(stream=doc.tobytes())
    for xref in range(1, doc.xref_length()):
        if "/ToUnicode" in (doc.xref_object(xref) or ""):
            doc.xref_set_key(xref, "ToUnicode", "null")
    return doc.tobytes()


def rotated() -> bytes:
    doc = born_digital()
    doc[0].set_rotation(90)
    return doc.tobytes()


def fragmented(tiles: int = 4) -> bytes:
    """One 240×240 pt picture inserted as tiles × tiles separate images."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    size = 240 / tiles
    for row in range(tiles):
        for col in range(tiles):
            box = pymupdf.Rect(100 + col * size, 200 + row * size, 100 + (col + 1) * size, 200 + (row + 1) * size)
            page.insert_image(box, pixmap=picture(60, 60), keep_proportion=False)
    page.insert_text((100, 480), "型号：SF-0099 价格：¥10.00 品名：拼接图片测试", fontname="china-s", fontsize=11)
    return doc.tobytes()


def special_images() -> bytes:
    """A CMYK picture and one with an alpha channel."""
    doc = born_digital()
    page = doc[0]
    page.insert_image(pymupdf.Rect(320, 420, 540, 640), pixmap=picture(colorspace=pymupdf.csCMYK),
                      keep_proportion=False)
    page.insert_image(pymupdf.Rect(320, 660, 540, 800), pixmap=picture(400, 300, alpha=True), keep_proportion=False)
    return doc.tobytes()


def spot_colour_picture() -> bytes:
    """A page whose picture is in a spot colour (/Separation, one ink), two pixels: no ink, full ink."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    spot = doc.get_new_xref()
    doc.update_object(spot, "[/Separation /Magenta /DeviceCMYK << /FunctionType 2 /Domain [0 1] "
                            "/C0 [0 0 0 0] /C1 [0 1 0 0] /N 1 >>]")
    image = doc.get_new_xref()
    doc.update_object(image, f"<< /Type /XObject /Subtype /Image /Width 2 /Height 1 /BitsPerComponent 8 "
                             f"/ColorSpace {spot} 0 R >>")
    doc.update_stream(image, bytes([0, 255]))
    content = doc.get_new_xref()
    doc.update_object(content, "<< >>")
    doc.update_stream(content, b"q 300 0 0 150 100 592 cm /Im1 Do Q")  # drawn at (100, 100)-(400, 250)
    doc.xref_set_key(page.xref, "Resources", f"<< /XObject << /Im1 {image} 0 R >> >>")
    doc.xref_set_key(page.xref, "Contents", f"{content} 0 R")
    return doc.tobytes()


def with_inline_images(*boxes: tuple[float, float, float, float], pixels: tuple[int, int] = (64, 48)) -> bytes:
    """A page whose pictures are inline images (BI … ID … EI in its content stream, no xref), one per box."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_text((60, 80), "Inline pictures", fontname="helv", fontsize=11)
    width, height = pixels
    samples = b"".join(bytes((x * 4 % 256, y * 5 % 256, 128)) for y in range(height) for x in range(width))
    content = b"".join(b"q %g 0 0 %g %g %g cm BI /W %d /H %d /CS /RGB /BPC 8 /F /AHx ID\n%s>\nEI Q\n"
                       % (x1 - x0, y1 - y0, x0, PAGE.height - y1, width, height, samples.hex().encode())
                       for x0, y0, x1, y1 in boxes)
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\n" + content)
    return doc.tobytes()


def with_decorations() -> bytes:
    """The born-digital page plus an 8 pt embedded bullet and a 10 pt inline icon."""
    doc = pymupdf.open(stream=with_inline_images((300, 100, 310, 110), pixels=(8, 8)))
    doc[0].insert_image(pymupdf.Rect(60, 100, 68, 108), pixmap=picture(16, 16), keep_proportion=False)
    doc[0].insert_image(pymupdf.Rect(60, 420, 300, 640), pixmap=picture(), keep_proportion=False)
    return doc.tobytes()


def with_javascript() -> bytes:
    doc = born_digital()
    doc.xref_set_key(doc.pdf_catalog(), "OpenAction", "<</S/JavaScript/JS(app.alert(1))>>")
    return doc.tobytes()


def price_table(rows: int = 6, top: float = 100, rotation: int = 0, chinese: bool = False) -> pymupdf.Document:
    """A text-aligned price table; on a page with /Rotate ``rotation`` whose text reads upright as displayed."""
    font = "china-s" if chinese else "helv"
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.set_rotation(rotation)

    def write(x: float, y: float, text: str, size: float) -> None:  # (x, y) on the displayed page
        page.insert_text(pymupdf.Point(x, y) * page.derotation_matrix, text, fontname=font, fontsize=size,
                         rotate=rotation)

    labels = ("型号", "品名", "规格", "价格") if chinese else ("Model", "Name", "Size", "Price")
    columns = tuple(zip(labels, (50, 150, 300, 450), strict=True))
    for label, x in columns:
        write(x, top, label, 11)
    for index in range(rows):
        name = f"不锈钢杯 {index}" if chinese else f"Steel mug {index}"
        values = (f"AB-{100 + index}", name, f"{300 + index}ml", f"${4 + index}.50")
        for (_, x), value in zip(columns, values, strict=True):
            write(x, top + 24 * (index + 1), value, 10)
    return doc
