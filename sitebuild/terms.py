"""The site's Chinese terminology: one table, from which the glossary, the search dictionary and the
terminology test are made.

For each concept, `TERMS` gives the chosen Chinese term, its English counterpart and the variants not
to use (regular expressions over prose, with code, maths and URLs already masked; see
sitebuild.zhstyle). From the table come:

- docs/.snippets/glossary.md, the abbreviation list appended to every page (tooltips: the English
  term over a Chinese one and the other way round), for terms marked ``tooltip``;
- docs/.snippets/jieba-user.txt, the user dictionary of Material's search plugin, so that jieba keeps
  each term whole in the search index (it splits 参数量 into 参|数量, 热力图 into 热|力图);
- tests/test_terms.py, which fails on a listed variant in a Chinese page or in a Chinese string that
  code prints into a page (snippets/i18n.py), and checks that the two generated files are current.

Write both files again after editing the table: ``python -m sitebuild.terms``.

>>> any(t.zh == "消融" for t in TERMS)
True
>>> "参数量" in jieba_words()
True
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / ".snippets" / "glossary.md"
JIEBA_USER = ROOT / "docs" / ".snippets" / "jieba-user.txt"


@dataclass(frozen=True)
class Variant:
    """A way of writing a concept that the site does not use, and what to write instead."""

    regex: str
    use: str

    @property
    def pattern(self) -> re.Pattern:
        return re.compile(self.regex)


@dataclass(frozen=True)
class Term:
    """A concept: the chosen Chinese term, the English one, and the variants not to use.

    tooltip: the glossary shows `en` over `zh` on Chinese pages; reverse: the English forms that
    show `zh` over them on English pages. search: jieba keeps `zh` whole in the search index.
    """

    zh: str
    en: str
    concept: str = ""
    avoid: tuple[Variant, ...] = ()
    tooltip: bool = True
    reverse: tuple[str, ...] | None = None  # None: (en,)
    search: bool = True
    note: str = ""

    def __post_init__(self):
        if not self.zh or not self.en:
            raise ValueError(f"a term needs its Chinese and English forms, got zh={self.zh!r}, en={self.en!r}")
        if not self.concept:
            object.__setattr__(self, "concept", self.en)

    @property
    def english_forms(self) -> tuple[str, ...]:
        return (self.en,) if self.reverse is None else self.reverse


def V(regex: str, use: str) -> Variant:  # noqa: N802 - reads as a table
    return Variant(regex, use)


NOT_LATIN = r"(?<![A-Za-z_\-])"
NOT_LATIN_AFTER = r"(?![A-Za-z_])"

TERMS: tuple[Term, ...] = (
    Term("多头注意力", "multi-head attention"),
    Term("自注意力", "self-attention"),
    Term("交叉注意力", "cross-attention"),
    Term("缩放点积注意力", "scaled dot-product attention"),
    Term("注意力头", "attention head"),
    Term("注意力权重", "attention weights"),
    Term("注意力分数", "attention scores", avoid=(V("打分矩阵|得分矩阵|注意力得分", "注意力分数（矩阵）"),),
         tooltip=False),
    Term("多查询注意力", "multi-query attention (MQA)", reverse=("multi-query attention",)),
    Term("分组查询注意力", "grouped-query attention (GQA)", reverse=("grouped-query attention",)),
    Term("稀疏注意力", "sparse attention"),
    Term("线性注意力", "linear attention"),
    Term("投影", "projection"),
    Term("输出投影", "output projection"),
    Term("查询 / 键 / 值", "query / key / value", concept="query, key, value in prose", tooltip=False, search=False,
         avoid=(V(NOT_LATIN + r"(?:[Qq]uer(?:y|ies)|[Kk]eys?|[Vv]alues?)" + NOT_LATIN_AFTER, "查询 / 键 / 值"),)),
    Term("掩码", "mask", reverse=(), concept="mask (only over keys)",
         avoid=(V(r"头掩码|屏蔽(?:掉)?(?:这个|一个|某个|每个|该)?头|遮掉|掩码掉", "去掉（置零）一个头"),),
         note="屏蔽 / 掩码 only for keys; for a head: 去掉（置零）一个头"),
    Term("因果掩码", "causal mask"),
    Term("填充", "padding", tooltip=False,
         avoid=(V(NOT_LATIN + r"[Pp]adding" + NOT_LATIN_AFTER + r"|补齐|补零", "填充"),)),
    Term("位置编码", "positional encoding"),
    Term("位置嵌入", "position embedding", tooltip=False,
         avoid=(V(r"位置向量|位置 ?[Ee]mbedding|[Pp]osition(?:al)? [Ee]mbedding", "位置嵌入"),)),
    Term("词元嵌入", "token embedding", tooltip=False,
         avoid=(V(r"词向量|词嵌入|[Tt]oken ?嵌入|[Tt]oken [Ee]mbedding", "词元嵌入"),)),
    Term("片段嵌入", "segment embedding", tooltip=False,
         avoid=(V(r"(?<!片)段向量|(?<![片分])段嵌入|分段嵌入|[Ss]egment ?(?:嵌入|[Ee]mbedding)", "片段嵌入"),)),
    Term("剪枝", "pruning"),
    Term("消融", "ablation", note="消融 for the experiment; the action is 去掉（置零）一个头"),
    Term("热力图", "heatmap", avoid=(V(r"热图|热度图", "热力图"),)),
    Term("编码器", "encoder"),
    Term("解码器", "decoder"),
    Term("残差连接", "residual connection"),
    Term("层归一化", "layer normalization", reverse=("layer normalization", "layer normalisation"),
         avoid=(V(NOT_LATIN + r"Layer ?Norm" + NOT_LATIN_AFTER + r"|层规范化|层标准化", "层归一化"),)),
    Term("前馈网络", "feed-forward network", tooltip=False,
         avoid=(V(r"前馈层|前向网络|" + NOT_LATIN + r"(?:FFN|MLP)" + NOT_LATIN_AFTER, "前馈网络"),)),
    Term("过拟合", "overfitting", avoid=(V(r"过度拟合", "过拟合"),)),
    Term("嵌入", "embedding", reverse=()),
    Term("KV 缓存", "KV cache", tooltip=False, reverse=("KV cache",), search=False),
    Term("每个头的宽度", "per-head width d_k", tooltip=False,
         avoid=(V(r"每头维度|每头宽度|每个头的维度|单头维度|(?<!个)头的维度", "每个头的宽度 d_k"),)),
    Term("内存", "memory (CPU)", tooltip=False, concept="memory on the CPU",
         avoid=(V(r"显存(?!带宽)", "内存（本站只在 CPU 上测量；GPU 的显存带宽除外）"),)),
    Term("留出集", "held-out set", tooltip=False,
         avoid=(V(r"保留集|留存集|保持集|" + NOT_LATIN + r"[Hh]old-?out|[Hh]eld-?out", "留出集"),),
         note="留出集: data kept out of training and used only to measure; 验证集: data used to choose a model"),
    Term("验证集", "validation set", tooltip=False),
    Term("两个头的模型", "two-head model", tooltip=False, search=False,
         avoid=(V(r"两头|双头", "两个头的模型（“两头”是两端）"),)),
    Term("实现", "implementation (a contender in a benchmark)", tooltip=False, search=False,
         avoid=(V(r"选手", "实现"),)),
    Term("分散（熵高）", "spread out (high entropy)", tooltip=False, search=False,
         avoid=(V(r"发散", "分散（熵高）（“发散”在机器学习里指训练发散）"),)),
    Term("Vaswani 等（2017）", "Vaswani et al. (2017)", concept="citation: authors", tooltip=False, search=False,
         avoid=(V(r"等人", "等"), V(r"et al(?!\. \*)\.?", "等"))),
    Term("表 3(A)", "Table 3(A)", concept="citation: tables", tooltip=False, search=False,
         avoid=(V(r"Table \d", "表 N"), V(r"表\d|表 \d+(?:\.\d+)? (?:\(|（)[A-Z]|表 \d+（[A-Z]）", "表 3(A)"))),
    Term("第 3.2.2 节", "Section 3.2.2", concept="citation: sections", tooltip=False, search=False,
         avoid=(V(r"§ ?\d|Section \d|(?<![\d.])(?<!第 )(?<!第)\d+(?:\.\d+)+ ?节", "第 3.2.2 节"),)),
    Term("参数量", "number of parameters", reverse=()),
    Term("句向量", "sentence embedding"),
    Term("四分位距", "interquartile range"),
)

# Notation, checked inside maths (and in prose, where these should have been maths).
NOTATION: tuple[Variant, ...] = (
    V(r"W_\{?[Oo]\}?|W\^\{?o\}?(?![A-Za-z])", r"W^O"),
    V(r"d_\{?model|d_\{?\\mathrm\{model\}|d_\{?\\rm", r"d_\text{model}"),
)
PROSE_NOTATION: tuple[Variant, ...] = (
    V(NOT_LATIN + r"d_model" + NOT_LATIN_AFTER, r"$d_\text{model}$ (maths) or `d_model` (code)"),
    V(NOT_LATIN + r"W_[Oo]" + NOT_LATIN_AFTER, r"$W^O$"),
)

HEADER = (
    "<!-- Generated from sitebuild/terms.py (python -m sitebuild.terms): edit the table there, not this file.\n"
    "     Appended to every page (pymdownx.snippets auto_append); sitebuild/hooks/glossary.py shows each\n"
    "     term's counterpart as a tooltip. -->\n"
)


def glossary_markdown() -> str:
    """docs/.snippets/glossary.md: the abbreviation definitions for every term with a tooltip."""
    zh = [f"*[{t.zh}]: {t.en}" for t in TERMS if t.tooltip]
    en = [f"*[{form}]: {t.zh}" for t in TERMS if t.tooltip for form in t.english_forms]
    en += [f"*[{form}]: {t.zh}" for t in TERMS if not t.tooltip and t.reverse for form in t.reverse]
    return HEADER + "\n" + "\n".join(zh + en) + "\n"


def jieba_words() -> list[str]:
    """Chinese terms the search index must keep whole, longest first."""
    words = set()
    for t in TERMS:
        if t.search:
            for word in re.split(r"[\s/（）()]+", t.zh):
                if re.fullmatch(r"[\u4e00-\u9fff]{2,}", word):
                    words.add(word)
    return sorted(words, key=lambda w: (-len(w), w))


def jieba_user_dict() -> str:
    """docs/.snippets/jieba-user.txt: one word per line with a frequency that keeps it whole."""
    return "".join(f"{w} 100000 n\n" for w in jieba_words())


def write() -> list[Path]:
    """Write the generated files; return those that changed."""
    changed = []
    for path, text in ((GLOSSARY, glossary_markdown()), (JIEBA_USER, jieba_user_dict())):
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    for p in write():
        print(f"wrote {p.relative_to(ROOT)}", file=sys.stderr)
