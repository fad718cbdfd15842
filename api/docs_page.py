"""The interactive reference of a family (<prefix>/docs): api/docs/index.html with its CSS and
JS inlined, one self-contained page (no CDN, no external font) that fetches the family's
openapi.json and renders it."""
from __future__ import annotations

import base64
import hashlib
from html import escape
from pathlib import Path

from .catalog import openapi_path
from .routes import Family

DOCS_DIR = Path(__file__).with_name("docs")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def build_docs_page(family: Family) -> tuple[bytes, dict[str, str]]:
    """The reference UI: api/docs/index.html with its CSS and JS inlined (one request, no CDN).
    A Content-Security-Policy allows exactly these inline blocks and same-origin fetches."""
    css = (DOCS_DIR / "docs.css").read_text()
    js = (DOCS_DIR / "docs.js").read_text()
    html = (DOCS_DIR / "index.html").read_text()
    replacements = {
        "{{title}}": escape(f"{family.title} {family.version}"),
        "{{openapi}}": escape(openapi_path(family)),
        "{{css}}": css,
        "{{js}}": js,
    }
    for key, value in replacements.items():
        html = html.replace(key, value)
    csp = (
        "default-src 'none'; "
        f"script-src {_csp_hash(js)}; style-src {_csp_hash(css)}; "
        "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
    )
    return html.encode(), {"content-security-policy": csp, "x-content-type-options": "nosniff"}
