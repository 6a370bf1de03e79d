"""A formula as a reader would type it: the text the search index holds for the site's math.

The pages show math as MathML (sitebuild/hooks/site.py). Its text content drops what the layout draws:
√d_k reads "dk", W^O "WO", QKᵀ/√d_k "QK⊤dk". Search indexed that text, so the result preview of the
section on scaling said "the scores are divided by dk" (the mistake the page warns against) and a search
for √d_k found nothing. ``tex_to_text`` writes the formula in plain Unicode instead; the site hook gives it
to the search index only, and the page keeps its MathML.

>>> tex_to_text(r"\\sqrt{d_k}")
'√d_k'
>>> tex_to_text(r"\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})V")
'softmax(QKᵀ/√d_k)V'
>>> tex_to_text(r"d_\\text{model} \\times d_k")
'd_model × d_k'
>>> tex_to_text(r"q\\cdot k=\\sum_{i=1}^{d_k} q_i k_i")
'q·k=∑_(i=1)^d_k q_i k_i'
>>> tex_to_text(r"W^O_i, 10^{-4}, \\frac{1}{\\sqrt{d_k}}, -\\infty")
'W^O_i, 10^(-4), 1/√d_k, -∞'
"""

from __future__ import annotations

import html
import re

__all__ = ["tex_to_text", "remember", "for_search"]

SYMBOLS = {
    "cdot": "·", "times": "×", "in": "∈", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠",
    "approx": "≈", "to": "→", "rightarrow": "→", "infty": "∞", "sum": "∑", "prod": "∏", "top": "ᵀ",
    "ldots": "…", "dots": "…", "cdots": "⋯", "pm": "±", "mid": "|", "odot": "⊙", "otimes": "⊗", "propto": "∝",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "theta": "θ",
    "lambda": "λ", "mu": "μ", "pi": "π", "sigma": "σ", "tau": "τ", "phi": "φ", "omega": "ω", "Sigma": "Σ",
    "Delta": "Δ", "ell": "ℓ", "log": "log", "ln": "ln", "exp": "exp", "max": "max", "min": "min",
    "left": "", "right": "", "big": "", "Big": "", ",": " ", ";": " ", "quad": " ", "qquad": " ", "!": "",
    "lbrace": "{", "rbrace": "}", "{": "{", "}": "}", "_": "_", "%": "%", "lVert": "‖", "rVert": "‖",
}
FONTS = ("text", "mathrm", "operatorname", "mathbf", "mathit", "mathsf", "mathtt", "boldsymbol", "textbf")
DOUBLE = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "E": "𝔼"}

_COMMAND = re.compile(r"\\([A-Za-z]+|.)")


def _group(tex: str, i: int) -> tuple[str, int]:
    """The argument that starts at tex[i] (a {…} group, a command or one character) and where it ends."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        depth, j = 0, i
        while j < len(tex):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[i + 1:j], j + 1
            j += 1
        raise ValueError(f"expected a closing brace in {tex!r}")
    if tex[i] == "\\":
        m = _COMMAND.match(tex, i)
        name, j, taken = m.group(1), m.end(), m.group(0)
        for _ in range(2 if name in ("frac", "dfrac", "tfrac") else 1 if name in (*FONTS, "mathbb", "sqrt") else 0):
            arg, j = _group(tex, j)
            taken += "{" + arg + "}"
        return taken, j
    return tex[i], i + 1


def _wrap(text: str) -> str:
    """text, in parentheses when it is more than one symbol or one name with a subscript."""
    return text if re.fullmatch(r"[√]?[\w.]+(?:_\w+)?|[^\w\s]", text) else f"({text})"


def tex_to_text(tex: str) -> str:
    """The formula tex in plain Unicode: √, ᵀ, ×, Greek letters; sub- and superscripts as _ and ^."""
    if not isinstance(tex, str):
        raise ValueError(f"expected TeX as a string, got {type(tex).__name__}")
    out, i = [], 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            m = _COMMAND.match(tex, i)
            name, i = m.group(1), m.end()
            if name.isalpha():  # a space after a command's name only ends the name
                while i < len(tex) and tex[i] == " ":
                    i += 1
            if name == "sqrt":
                arg, i = _group(tex, i)
                out.append("√" + _wrap(tex_to_text(arg)))
            elif name in ("frac", "dfrac", "tfrac"):
                num, i = _group(tex, i)
                den, i = _group(tex, i)
                out.append(f"{_wrap(tex_to_text(num))}/{_wrap(tex_to_text(den))}")
            elif name in FONTS:
                arg, i = _group(tex, i)
                out.append(tex_to_text(arg))
            elif name == "mathbb":
                arg, i = _group(tex, i)
                out.append(DOUBLE.get(arg, arg))
            else:
                out.append(SYMBOLS.get(name, name))
        elif c in "^_":
            arg, i = _group(tex, i + 1)
            text = tex_to_text(arg)
            if c == "^" and text in ("ᵀ", "T") and arg.strip() in (r"\top", "T", "{\\top}"):
                out.append("ᵀ")
            else:
                out.append(c + _wrap(text))
        elif c in "{}":
            i += 1
        elif c == "~":
            out.append(" ")
            i += 1
        else:
            out.append(c)
            i += 1
    text = re.sub(r"\s*([×→∈≤≥≈])\s*", r" \1 ", "".join(out))
    return re.sub(r" {2,}", " ", text).strip()


# Each formula the site hook converted: its MathML and its plain text. A module of its own, not the hook's:
# MkDocs loads each hook file as a separate module, and both hooks read this one.
SEARCH_TEXT: dict[str, str] = {}
MATH = re.compile(r'<(span|div) class="math">(<math\b.*?</math>)</\1>', re.S)


def remember(mathml: str, tex: str) -> None:
    """Record the plain text of the formula tex, shown as mathml."""
    SEARCH_TEXT[mathml] = tex_to_text(tex)


def for_search(content: str) -> str:
    """content with every formula's MathML replaced by its plain text (ValueError for one not remembered).

    >>> remember("<math><msqrt><mi>x</mi></msqrt></math>", r"\\sqrt{x}")
    >>> for_search('a <span class="math"><math><msqrt><mi>x</mi></msqrt></math></span> b')
    'a <span class="math">√x</span> b'
    """
    def plain(m: re.Match) -> str:
        if m.group(2) not in SEARCH_TEXT:
            raise ValueError(f"expected a formula the site hook converted, got {m.group(2)[:80]}")
        return f'<{m.group(1)} class="math">{html.escape(SEARCH_TEXT[m.group(2)], quote=False)}</{m.group(1)}>'
    return MATH.sub(plain, content)
