"""Training the attention-only models on repeated random tokens, and what is measured on them.

- ``losses``: mean next-token loss (nats) on the predictable targets (inside the second copy) and on
  the random ones (everything else), on a fixed held-out batch.
- ``head_scores``: per head, the previous-token score (attention from t to t - 1, over all t >= 1) and
  the prefix-matching score (attention from a token of the second copy to the token right after its
  first occurrence, t - L + 1), Olsson et al.'s two signatures of the two heads of an induction circuit.
- ``context_mass``: the probability the model gives, at a random target, to tokens that already
  occurred earlier in the sequence: what a model can learn without induction (copy anything seen).

>>> torch.manual_seed(0); m = AttentionOnly(1, 2)
<torch._C.Generator object at ...>
>>> x, second = make_repeat_batch(8, seed=1)
>>> r = losses(m, x, second)
>>> sorted(r), 3.5 < r["random"] < 5.0
(['predictable', 'random'], True)
>>> s = head_scores(m, x, second)
>>> len(s["prev"]), len(s["prev"][0]), 0 <= s["prefix"][0][1] <= 1
(1, 2, True)
"""

from __future__ import annotations

import time

import torch
from torch import Tensor, nn

from .._checks import check_positive_int
from .model import AttentionOnly
from .task import SEQ_LEN, VOCAB, make_repeat_batch, predictable

__all__ = ["EVAL_SEED", "losses", "head_scores", "context_mass", "train_induction", "evaluate"]

EVAL_SEED = 2**31 - 1  # the held-out batch: no training seed s * 1_000_003 + step reaches it


def _token_losses(model: nn.Module, x: Tensor, **switches) -> Tensor:
    """Loss of predicting x[:, t + 1] at every t: shape (N, T - 1)."""
    logits = model(x, **switches)[:, :-1]
    return nn.functional.cross_entropy(logits.transpose(1, 2), x[:, 1:], reduction="none")


@torch.no_grad()
def losses(model: nn.Module, x: Tensor, second: Tensor, **switches) -> dict:
    """Mean loss on the predictable targets and on the random ones."""
    token = _token_losses(model, x, **switches)
    known = predictable(second)
    return {"predictable": float(token[known].mean()), "random": float(token[~known].mean())}


@torch.no_grad()
def head_scores(model: nn.Module, x: Tensor, second: Tensor) -> dict:
    """Per layer and head: previous-token and prefix-matching scores."""
    _, patterns = model(x, return_attention=True)
    N, T = x.shape
    L = second.sum(1)  # segment length per row
    t = torch.arange(1, T)
    rows, cols = second.nonzero(as_tuple=True)  # positions in the second copy
    prev, prefix = [], []
    for attn in patterns:  # (N, H, T, T)
        prev.append(attn[:, :, t, t - 1].mean((0, 2)).tolist())
        after_first = cols - L[rows] + 1  # the token after the first occurrence
        prefix.append(attn[rows, :, cols, after_first].mean(0).tolist())
    return {"prev": prev, "prefix": prefix}


@torch.no_grad()
def context_mass(model: nn.Module, x: Tensor, second: Tensor) -> float:
    """Mean probability, at the random targets, on token ids already seen in the sequence."""
    probs = model(x)[:, :-1].softmax(-1)  # (N, T - 1, V)
    seen = nn.functional.one_hot(x, VOCAB).cummax(1).values[:, :-1].bool()  # ids seen up to t
    mass = (probs * seen).sum(-1)
    return float(mass[~predictable(second)].mean())


def evaluate(model: nn.Module, eval_size: int = 256) -> dict:
    """Losses, head scores and context mass on the held-out batch."""
    model.eval()
    x, second = make_repeat_batch(eval_size, SEQ_LEN, seed=EVAL_SEED)
    out = losses(model, x, second) | head_scores(model, x, second)
    out["context_mass"] = context_mass(model, x, second)
    model.train()
    return out


def train_induction(num_layers: int, num_heads: int, seed: int, steps: int, batch_size: int = 64,
                    lr: float = 1e-3, eval_every: int = 100, eval_size: int = 256) -> tuple[AttentionOnly, list[dict]]:
    """Train one model on one thread: seed s sets the initial weights and the batches (batch of step i:
    seed s * 1_000_003 + i). Returns the model and the curve: evaluate() every eval_every steps,
    with step 0 first."""
    for name, v in (("steps", steps), ("batch_size", batch_size), ("eval_every", eval_every),
                    ("eval_size", eval_size)):
        check_positive_int(v, name)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not lr > 0:
        raise ValueError(f"lr must be positive, got {lr!r}")
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(seed)
        model = AttentionOnly(num_layers, num_heads)
        opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
        curve = [{"step": 0, "cpu_seconds": 0.0} | evaluate(model, eval_size)]
        start = time.process_time()
        for step in range(1, steps + 1):
            x, _ = make_repeat_batch(batch_size, SEQ_LEN, seed=seed * 1_000_003 + step)
            loss = _token_losses(model, x).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if step % eval_every == 0:
                curve.append({"step": step, "cpu_seconds": round(time.process_time() - start, 1)}
                             | evaluate(model, eval_size))
    finally:
        torch.set_num_threads(old)
    model.eval()
    return model, curve
