"""Scoring one answer: the lexical metrics, a binary LLM-as-judge with our own rubric, the record.

The judge runs at temperature 0 on ``judge_model`` at its own endpoint (``judge_base_url``), falling
back to the chat model under test.
With no model at all (the offline engine) the judge is unavailable and its score is None: a
missing judgement is reported as missing, never guessed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field

from dmem.datasets.datasets import QAItem
from dmem.errors import ModelError
from dmem.eval.methods import MethodAnswer, QuestionTask
from dmem.eval.metrics import bleu1, evidence_precision, evidence_recall, f1_locomo, f1_mem0, locomo_adversarial
from dmem.eval.settings import JudgeSettings, judge_api_key_from_env
from dmem.models.chat import make_chat_model
from dmem.models.client import OPENAI_URL, endpoint_url
from dmem.models.endpoints import Endpoints
from dmem.models.retry import RetryPolicy
from dmem.models.structured import StructuredCaller
from dmem.prompts.render import build, system_text
from dmem.state.caps import resolve_caps
from dmem.state.context import Context
from dmem.state.schemas import Usage

log = logging.getLogger(__name__)
NO_JUDGE_SETTINGS = JudgeSettings()
"""No judge model named: the model under test judges."""
Label = Literal["CORRECT", "WRONG"]
JUDGE_OFF = ("none", "off")
"""Judge model values that switch judging off."""


class JudgeVerdict(BaseModel):
    """The judge's verdict on one generated answer."""

    reasoning: str = Field(description="One sentence: does the generated answer state what the gold answer states?")
    label: Label = Field(description="CORRECT or WRONG.")


JUDGE_SYSTEM = system_text(
    "You grade answers given by a memory assistant about two people's past conversations.",
    "Compare the answer in <generated_answer> with the reference in <gold_answer> for the question "
    "in <question>, and label it CORRECT or WRONG.",
    [
        "Grade meaning, not form: a longer answer, a paraphrase, extra harmless detail or another "
        "word order is CORRECT when it states what the reference states.",
        "Dates: different formats or granularity that name the same day, month or year are CORRECT "
        "('7 May 2023', '2023-05-07', 'May 7th'); a different date or period is WRONG.",
        "A wrong name, number, place, time or event is WRONG, however well the answer is phrased; "
        "so is an answer that adds a claim contradicting the reference.",
        "For a list, every item of the reference must be present; an item missing or a wrong item "
        "makes the answer WRONG.",
        "An answer saying the information is unavailable is WRONG when the reference gives one.",
        "Write one sentence of reasoning first, then the label.",
    ],
)


def judge_prompt(question: str, gold: str, answer: str) -> list[BaseMessage]:
    """Messages of one judge call, inputs in XML-tagged sections."""
    return build(JUDGE_SYSTEM, [("question", question), ("gold_answer", gold), ("generated_answer", answer)])


@dataclass
class JudgeResult:
    """A judge label (None when unavailable or unusable), why, and what the call cost."""

    label: Label | None
    reasoning: str = ""
    usage: Usage | None = None
    error: str | None = None


class Judge:
    """Binary CORRECT/WRONG grading with one structured call per answer."""

    def __init__(self, model: BaseChatModel | None, name: str | None = None, *, method: str = "auto",
                 max_retries: int = 2, max_concurrency: int = 4, endpoints: Endpoints | None = None,
                 ctx: Context | None = None) -> None:
        self.name = name
        self._caller: StructuredCaller | None = None
        if model is not None:
            ctx = ctx or Context()
            endpoint = (endpoints or Endpoints()).for_model(model, ctx.endpoint_concurrency, max_concurrency)
            retry = RetryPolicy(retries=ctx.provider_retries, backoff=ctx.retry_backoff, deadline=ctx.call_deadline)
            self._caller = StructuredCaller(model, method=method, max_retries=max_retries, endpoint=endpoint,
                                            retry=retry, caps=resolve_caps(ctx.output_caps))

    @property
    def available(self) -> bool:
        """Whether a judge model is configured."""
        return self._caller is not None

    def __call__(self, question: str, gold: str, answer: str) -> JudgeResult:
        """Grade one answer; unavailable or malformed judgements give a None label."""
        if self._caller is None:
            return JudgeResult(None, "no judge model configured")
        try:
            verdict, usage = self._caller.call(JudgeVerdict, judge_prompt(question, gold, answer),
                                               stage="judge", temperature=0.0, tags=["eval", "judge"])
        except ModelError as exc:  # a malformed verdict, or a judge endpoint that keeps failing
            log.warning("judge reply unusable for %r: %s", question, exc)
            return JudgeResult(None, error=str(exc), usage=exc.usage)
        return JudgeResult(verdict.label, verdict.reasoning, usage)


def model_label(model: str | BaseChatModel | None) -> str:
    """A short, stable name of a chat model for fingerprints and reports."""
    if model is None:
        return "offline"
    if isinstance(model, str):
        return model
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or ""
    return f"{type(model).__name__}:{name}" if name else type(model).__name__


def served_label(label: str, model: BaseChatModel) -> str:
    """A model's label with the server it really talks to, when that is not the provider's own."""
    url = endpoint_url(model)
    return f"{label} at {url}" if url and url != OPENAI_URL else label


def judge_spec(judge: str | BaseChatModel | None, settings: JudgeSettings) -> str | BaseChatModel | None:
    """The judge model asked for: ``judge``, else the ``judge_model`` setting (None: the model under test)."""
    return judge or settings.judge_model


def judging_off(spec: str | BaseChatModel | None) -> bool:
    """Whether a judge spec switches judging off ('none' or 'off')."""
    return isinstance(spec, str) and spec.strip().lower() in JUDGE_OFF


def make_judge(judge: str | BaseChatModel | None, fallback: BaseChatModel | None, ctx: Context,
               endpoints: Endpoints | None = None, settings: JudgeSettings = NO_JUDGE_SETTINGS) -> Judge:
    """The judge on ``judge`` (or ``settings.judge_model``), else on the model under test, else unavailable.

    A judge model of its own talks to its own endpoint (``judge_base_url``, key from ``DMEM_JUDGE_API_KEY``),
    never to the ``base_url`` of the model under test. ``judge='none'`` switches judging off.
    The judge's name says which model, and which server, really judged.
    """
    spec = judge_spec(judge, settings)
    if judging_off(spec):
        log.info("judging switched off: judge scores will be reported as unavailable")
        return Judge(None)
    options: dict[str, Any] = {"method": ctx.structured_output, "max_retries": ctx.max_retries,
                               "max_concurrency": ctx.max_concurrency, "endpoints": endpoints, "ctx": ctx}
    if spec is None:
        if fallback is None:
            log.info("no judge model and no chat model: judge scores will be reported as unavailable")
            return Judge(None)
        return Judge(fallback, served_label(model_label(fallback), fallback), **options)
    model = make_chat_model(spec, base_url=settings.judge_base_url, api_key=judge_api_key_from_env(), temperature=0.0,
                            timeout=ctx.request_timeout)
    return Judge(model, served_label(model_label(spec), model), **options)


def lexical_scores(answer: str, qa: QAItem) -> dict[str, float | None]:
    """F1 (mem0), F1 (official LoCoMo) and BLEU-1; category 5 gets only the official adversarial check."""
    if qa.category == 5:
        return {"f1_mem0": None, "f1_locomo": locomo_adversarial(answer), "bleu1": None}
    return {"f1_mem0": f1_mem0(answer, qa.answer), "f1_locomo": f1_locomo(answer, qa.answer, qa.category),
            "bleu1": bleu1(answer, qa.answer)}


def judge_scores(result: JudgeResult) -> dict[str, Any]:
    """Judge fields of a record: 1.0 / 0.0 for CORRECT / WRONG, None when not judged."""
    value = None if result.label is None else float(result.label == "CORRECT")
    return {"judge": value, "judge_label": result.label, "judge_reasoning": result.reasoning,
            "judge_error": result.error}


def judge_answer(judge: Judge, answer: str, qa: QAItem) -> JudgeResult:
    """Judge an answer to a scored question; category 5 (adversarial) is not judged."""
    if qa.category == 5:
        return JudgeResult(None, "adversarial questions are not judged")
    return judge(qa.question, qa.answer, answer)


# --- The per-question record --------------------------------------------------------------------


def usage_fields(usage: dict[str, Usage]) -> dict[str, Any]:
    """Token and call totals of an answer, plus the per-stage breakdown."""
    total = usage.get("total") or Usage(stage="total")
    stages = {k: v.model_dump(exclude={"stage"}) for k, v in usage.items() if k not in ("total", "retries")}
    return {"input_tokens": total.input_tokens, "output_tokens": total.output_tokens,
            "total_tokens": total.input_tokens + total.output_tokens, "calls": total.calls,
            "estimated": total.estimated, "stages": stages,
            "retries": {"calls": total.retries, "input_tokens": total.retry_input_tokens,
                        "output_tokens": total.retry_output_tokens, "seconds": total.retry_seconds}}


def build_record(task: QuestionTask, out: MethodAnswer, config: str) -> dict[str, Any]:
    """The per-question record: question, gold, answer, route, scores, usage, evidence recall, trace precision."""
    qa, method = task.qa, task.method
    retrieval = None if method.kind == "full_context" else evidence_recall(qa.evidence, out.retrieved_turn_ids)
    counted = None if method.kind == "full_context" else \
        evidence_recall(qa.evidence, out.retrieved_turn_ids, qa.missing_evidence)
    deliberation = None if out.facts_turn_ids is None else evidence_recall(qa.evidence, out.facts_turn_ids)
    trace = evidence_recall(qa.evidence, out.evidence_turn_ids) if method.kind == "memory" else None
    cited = evidence_precision(qa.evidence, out.evidence_turn_ids) if method.kind == "memory" else None
    return {
        "key": task.key, "config": config, "method": method.name,
        "conversation_id": task.conversation.conversation_id, "index": task.index,
        "question": qa.question, "asked": out.asked or qa.question, "gold": qa.answer, "category": qa.category,
        "evidence": qa.evidence,
        "missing_evidence": qa.missing_evidence,
        "answer": out.answer, "route": out.route, "gate_passed": out.gate_passed,
        "fallback": (out.route == "deliberation") if method.gated else None,
        "gate_reasons": out.gate_reasons, "memory_ids": out.memory_ids, "context": out.context,
        "retrieved_turn_ids": out.retrieved_turn_ids, "facts_turn_ids": out.facts_turn_ids,
        "scores": lexical_scores(out.answer, qa), "usage": usage_fields(out.usage),
        "seconds": out.seconds, "engine": out.engine,
        "evidence_turn_ids": out.evidence_turn_ids, "read_share": out.read_share,
        "unread_turn_ids": out.unread_turn_ids,
        "evidence_recall": {"system1": retrieval, "system1_missing_counted": counted,
                            "deliberation": deliberation, "answer": trace},
        "evidence_precision": {"answer": cited},
    }
