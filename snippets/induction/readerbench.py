"""The live view's benchmark: texts a reader might type, each a sentence written twice.

Fixed before the reader's model (snippets.induction.reader) was first evaluated on any reader-like
text, and never used to choose anything about it: the training data, the model and the number of
steps were decided on random ids alone. Twenty Chinese and twenty English sentences of 12 to 48
characters; some are typed twice back to back, some with a separator between the copies, some after
a prefix, so the repeat sits anywhere in the text.

The metric, also fixed here: in each text, the predictable next characters are those of the second
copy after its first character (the first copy gives each of them away); a guess is right when the
model's most likely id is the next character's id. A text's score is the share of its predictable
next characters guessed right; the benchmark's score is the mean over texts, per language.

>>> len(CASES["zh"]), len(CASES["en"])
(20, 20)
>>> t = layout("前缀：", "今天下雨了，出门记得带伞。", "")
>>> t.text, t.second, t.length
('前缀：今天下雨了，出门记得带伞。今天下雨了，出门记得带伞。', 16, 13)
>>> predictable_positions(t)[:3], len(predictable_positions(t))
([16, 17, 18], 12)
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CASES", "Text", "layout", "texts", "predictable_positions", "score"]

# (prefix, sentence, separator between the two copies)
CASES = {
    "zh": (
        ("", "今天下午三点在二楼会议室开会。", ""),
        ("", "请把这份报告在周五之前发给我。", " "),
        ("备注：", "明天早上八点出发，别迟到。", ""),
        ("", "北京的秋天天气很好，适合出去走走。", "；"),
        ("", "服务器在凌晨两点重启了一次。", ""),
        ("日志：", "数据库连接超时，正在重试。", " "),
        ("", "我们下周一去图书馆借几本关于历史的书吧。", ""),
        ("", "小猫在窗台上晒了一下午太阳。", "。"),
        ("", "这道题的答案是四十二，不是二十四。", ""),
        ("第二遍：", "春眠不觉晓，处处闻啼鸟。", ""),
        ("", "注意力机制让模型在生成每个词时回看前面的内容。", ""),
        ("", "请在登录之后修改你的初始密码。", "，"),
        ("", "火车晚点了四十分钟，大家都在站台上等着。", ""),
        ("问：", "归纳头是怎样找到上一次出现的位置的？", ""),
        ("", "我觉得妈妈做的红烧肉最好吃。", " "),
        ("", "会议纪要已经上传到共享文件夹里了，有问题的话请在明天中午之前直接回复这封邮件。", ""),
        ("", "周末天气预报说有大雨，出门记得带伞。", "；"),
        ("提醒：", "下午四点之前提交代码审查。", ""),
        ("", "学而时习之，不亦说乎？有朋自远方来，不亦乐乎？", ""),
        ("", "这个函数的返回值应该是一个列表。", " "),
    ),
    "en": (
        ("", "the cat sat on the mat.", " "),
        ("", "Meet me at the station at noon.", " "),
        ("note: ", "call the bank before Friday", " "),
        ("", "ERROR disk quota exceeded", "; "),
        ("", "Hello, world!", " "),
        ("", "The quick brown fox jumps over the lazy dog.", " "),
        ("log: ", "retrying connection to db-3", " "),
        ("", "to be or not to be", ", "),
        ("", "Please send the report by Monday.", " "),
        ("", "My password is not 12345678.", " "),
        ("again: ", "coffee at ten, lunch at one", ""),
        ("", "Attention looks back at earlier tokens.", " "),
        ("", "git commit -m 'fix the typo'", " "),
        ("", "She sells sea shells by the sea shore.", " "),
        ("Q: ", "why does the loss drop suddenly?", " "),
        ("", "Turn left at the second light.", " "),
        ("", "red, green, blue, yellow", " / "),
        ("", "The meeting moved to room 204.", ""),
        ("todo: ", "buy milk, eggs and bread", " "),
        ("", "Induction heads copy what came next last time.", " "),
    ),
}


class Text(NamedTuple):
    text: str
    second: int  # index of the second copy's first character
    length: int  # characters in one copy


def layout(prefix: str, sentence: str, sep: str) -> Text:
    """The text prefix + sentence + sep + sentence, and where its second copy starts."""
    if not isinstance(sentence, str) or not 12 <= len(sentence) <= 48:
        raise ValueError(f"expected a sentence of 12 to 48 characters, got {sentence!r}")
    second = len(prefix) + len(sentence) + len(sep)
    return Text(prefix + sentence + sep + sentence, second, len(sentence))


def texts(lang: str) -> list[Text]:
    if lang not in CASES:
        raise ValueError(f"expected a language of {sorted(CASES)}, got {lang!r}")
    return [layout(*c) for c in CASES[lang]]


def predictable_positions(t: Text) -> list[int]:
    """Positions p whose next character p + 1 the first copy gives away: p and p + 1 in the second copy."""
    return list(range(t.second, t.second + t.length - 1))


def score(guesses: list[int], ids: list[int], t: Text) -> float:
    """Share of t's predictable next characters guessed right: guesses[p] is the model's id after p."""
    pos = predictable_positions(t)
    return sum(guesses[p] == ids[p + 1] for p in pos) / len(pos)
