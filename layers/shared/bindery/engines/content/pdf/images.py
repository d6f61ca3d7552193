"""Images in the PDF: a file reference's bytes (through the caller's `load_file`), drawn at their natural
size (96 dpi) scaled down to the text width and to 60% of the page height.

Only PNG, JPEG and GIF are drawn, recognised from the bytes (Pillow), whatever the stored content type
says. Everything else (URL images, which a Lambda must not fetch on a reader's behalf; SVG drawings;
missing or undecodable files) is not drawn: the caller prints its caption instead.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from typing import Any

from fpdf import FPDF

LoadFile = Callable[[str], tuple[bytes, str] | None]
FORMATS = ("PNG", "JPEG", "GIF")
MM_PER_PX = 25.4 / 96
MAX_PAGE_SHARE = 0.6


def _pixel_size(data: bytes) -> tuple[int, int] | None:
    from PIL import Image  # Pillow comes with fpdf2

    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size if image.format in FORMATS else None
    except (OSError, ValueError, Image.DecompressionBombError):
        return None  # not an image Pillow reads, or one too large to decode safely


def draw_image(pdf: FPDF, ref: Any, load_file: LoadFile) -> bool:
    """Draw the image `ref` names at the cursor (breaking the page if it does not fit) and move the cursor
    below it; False when there is nothing to draw."""
    if not isinstance(ref, Mapping) or ref.get("kind") != "file" or not ref.get("file"):
        return False
    loaded = load_file(str(ref["file"]))
    size = _pixel_size(loaded[0]) if loaded else None
    if loaded is None or size is None or min(size) <= 0:
        return False
    width, height = size[0] * MM_PER_PX, size[1] * MM_PER_PX
    scale = min(1.0, (pdf.w - pdf.l_margin - pdf.r_margin) / width,
                (pdf.h - pdf.t_margin - pdf.b_margin) * MAX_PAGE_SHARE / height)
    try:
        pdf.image(io.BytesIO(loaded[0]), x=pdf.l_margin, w=width * scale, h=height * scale)
    except Exception:  # noqa: BLE001 - a decoder fed a reader's upload: one bad file must not sink the PDF
        return False
    pdf.set_x(pdf.l_margin)
    return True
