"""The gate policy in one place: its values, the route each takes through the query graph, and the verdict.

A gate policy decides whether System 1's answer stands or Full Deliberation runs. The setting
(``Context.gate_policy``) is typed by ``GatePolicy``; the query graph's routers read the policy's
``PolicyRoute`` from ``ROUTES``; the answering nodes build their ``GateVerdict`` with the functions
below. Adding a policy: its name in ``GatePolicy`` and its row in ``ROUTES`` (docs/extending.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from dmem.state.graphs import GateVerdict
from dmem.state.verdicts import QualityGateVerdict

GatePolicy = Literal["quality", "majority", "consensus", "never", "always"]
"""quality (the quality gate), majority / consensus (vote), never (Mem0* only), always (System 2 only)."""
GATE_POLICIES: tuple[GatePolicy, ...] = get_args(GatePolicy)
"""Every gate policy, in the order the docs and the CLI list them."""
QUALITY: GatePolicy = "quality"
"""The policy of the quality gate (the verdicts below that name no policy are its)."""
NO_MEMORY = "none"
"""The ``policy`` of the verdict when nothing was stored: no gate ran."""


@dataclass(frozen=True)
class PolicyRoute:
    """How one gate policy runs through the query graph."""

    first: Literal["answer", "vote", "deliberate"]
    """With memories retrieved: answer once, sample answers and vote, or deliberate at once (System 2 only)."""
    quality_gate: bool
    """A single answer goes to the quality gate (else it stands)."""
    deliberates_without_memories: bool
    """With no memory retrieved but a transcript recorded: deliberate (else say nothing is known)."""
    agreement: Literal["all", "majority"] | None = None
    """Voting policies: how many of the samples must agree for the answer to stand."""

    @property
    def gated(self) -> bool:
        """System 1's answer is checked, and may fall back to Full Deliberation (D-Mem Table 2)."""
        return self.quality_gate or self.first == "vote"


ROUTES: dict[GatePolicy, PolicyRoute] = {
    "quality": PolicyRoute(first="answer", quality_gate=True, deliberates_without_memories=True),
    "majority": PolicyRoute(first="vote", quality_gate=False, deliberates_without_memories=True,
                            agreement="majority"),
    "consensus": PolicyRoute(first="vote", quality_gate=False, deliberates_without_memories=True,
                             agreement="all"),
    "never": PolicyRoute(first="answer", quality_gate=False, deliberates_without_memories=False),
    "always": PolicyRoute(first="deliberate", quality_gate=False, deliberates_without_memories=True),
}
"""Each policy's route; one row per value of ``GatePolicy``."""


def route_of(policy: GatePolicy) -> PolicyRoute:
    """The route of a gate policy."""
    return ROUTES[policy]


def stands(gate: GateVerdict) -> bool:
    """System 1's answer stands: the gate passed, or could not run (unaudited); else Full Deliberation runs."""
    return bool(gate.get("passed") or gate.get("unaudited"))


def quality_verdict(verdict: QualityGateVerdict) -> GateVerdict:
    """The quality gate's verdict: one reason line per criterion."""
    reasons = [f"{name}: {'pass' if v.passed else 'fail'} - {v.reason}" for name, v in
               (("relevance", verdict.relevance), ("faithfulness", verdict.faithfulness),
                ("completeness", verdict.completeness))]
    return GateVerdict(policy=QUALITY, passed=verdict.passed, quality=verdict, reasons=reasons)


def quality_failed(reason: str) -> GateVerdict:
    """The quality gate failed without a verdict (nothing to check, or a malformed reply)."""
    return GateVerdict(policy=QUALITY, passed=False, quality=None, reasons=[reason])


def unaudited(policy: str, why: str, error: Exception, *, samples: list[str] | None = None) -> GateVerdict:
    """The gate could not run (its model kept failing): System 1's answer stands, unchecked.

    A vote keeps the ``samples`` it obtained; the quality gate has no verdict (``quality`` None).
    """
    gate = GateVerdict(policy=policy, passed=False, unaudited=True,
                       reasons=[f"unaudited: {why} ({error}); System 1's answer returned without the check"])
    if samples is None:
        gate["quality"] = None
    else:
        gate["samples"] = samples
    return gate


def votes_needed(policy: GatePolicy, samples: int) -> int:
    """Samples that must agree: all of them for 'all' (consensus), else a strict majority."""
    return samples if route_of(policy).agreement == "all" else samples // 2 + 1


def vote_verdict(policy: GatePolicy, samples: list[str], top: list[int], chosen_known: bool,
                 groups: list[list[int]], note: str = "") -> GateVerdict:
    """A vote's verdict: the largest group (``top``) is big enough and its answer says something."""
    n = len(samples)
    need = votes_needed(policy, n)
    passed = len(top) >= need and chosen_known
    reason = f"{len(top)} of {n} answers agree ({'all' if need == n else 'a majority'} needed){note}"
    return GateVerdict(policy=policy, passed=passed, samples=samples, groups=groups, reasons=[reason])


def no_memory_verdict() -> GateVerdict:
    """Nothing stored for the namespaces asked: no gate ran."""
    return GateVerdict(policy=NO_MEMORY, passed=True, reasons=["no memories and no transcript"])
