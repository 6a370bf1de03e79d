"""Page weight: every page's HTML (inline SVG figures included) plus the images and data files it
loads from the site stays under 1 MB. The sizes are written to test-artifacts/page-weight.md and printed."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from conftest import ROOT

LIMIT = 1_000_000  # bytes
# what a page loads from the site besides its HTML: images, images inside inline SVG, data files
IMG = re.compile(r"<img\b[^>]*\bsrc=[\"']([^\"']+)[\"']|<image\b[^>]*\bxlink:href=\"([^\"]+)\"|\bdata-src=\"([^\"]+)\"")
SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def page_weight(site: Path, html_file: Path) -> tuple[int, int, int]:
    """(total bytes, bytes of inline SVG, bytes of same-site images) for one page."""
    text = html_file.read_text(encoding="utf-8")
    html_bytes = html_file.stat().st_size
    svg_bytes = sum(len(s.encode("utf-8")) for s in SVG.findall(text))
    rel = html_file.parent.relative_to(site).as_posix()
    page_url = "/" if rel == "." else f"/{rel}/"
    images = 0
    for src in {next(g for g in m if g) for m in IMG.findall(text)}:
        parts = urlsplit(src)
        if parts.scheme or parts.netloc or src.startswith("data:"):
            continue
        target = site / urljoin(page_url, parts.path).lstrip("/")
        if target.is_file():
            images += target.stat().st_size
    return html_bytes + images, svg_bytes, images


def test_no_page_is_over_one_megabyte(built_site, capsys):
    rows = []
    for html in sorted(built_site.rglob("*.html")):
        total, svg, images = page_weight(built_site, html)
        rows.append((html.relative_to(built_site).as_posix(), total, svg, images))
    rows.sort(key=lambda r: -r[1])
    lines = ["| page | total KB | inline SVG KB | images KB |", "|---|---:|---:|---:|"]
    lines += [f"| {p} | {t / 1000:.1f} | {s / 1000:.1f} | {i / 1000:.1f} |" for p, t, s, i in rows]
    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    (out / "page-weight.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with capsys.disabled():
        print(f"\npage weight (heaviest 5 of {len(rows)}, full table in test-artifacts/page-weight.md):")
        print("\n".join(lines[:2] + lines[2:7]))
    heavy = [f"{p}: {t / 1e6:.2f} MB" for p, t, _, _ in rows if t > LIMIT]
    assert not heavy, f"pages over 1 MB: {heavy}"
