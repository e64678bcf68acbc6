"""The eval judge talks to its own endpoint, and reports name the model (and server) that really judged."""

from __future__ import annotations

import pytest

from dmem.errors import ConfigError
from dmem.eval.judge import make_judge, usage_fields
from dmem.models.chat import make_chat_model
from dmem.models.endpoints import Endpoints
from dmem.state.context import build_context
from dmem.state.schemas import Usage, summarize_usage


def test_judge_never_borrows_the_base_url_of_the_model_under_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    ctx = build_context(chat_model="llamacpp:qwen", base_url="http://127.0.0.1:8081/v1", judge_model="openai:gpt-4o")
    judge = make_judge(None, None, ctx)
    assert judge.name == "openai:gpt-4o"
    assert judge._caller is not None
    assert str(judge._caller.model.openai_api_base or "https://api.openai.com/v1").startswith("https://api.openai")  # type: ignore[attr-defined]


def test_judge_on_its_own_server_is_named_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DMEM_API_KEY", "sk-model-under-test")
    monkeypatch.setenv("DMEM_JUDGE_API_KEY", "sk-judge")
    ctx = build_context(base_url="http://127.0.0.1:8081/v1", judge_model="openai-compatible:judge-7b",
                        judge_base_url="http://10.0.0.5:8000/v1")
    judge = make_judge(None, None, ctx)
    assert judge.name == "openai-compatible:judge-7b at http://10.0.0.5:8000/v1"
    assert judge._caller is not None and judge._caller.endpoint.url == "http://10.0.0.5:8000/v1"
    assert judge._caller.model.openai_api_key.get_secret_value() == "sk-judge"  # type: ignore[attr-defined]


def test_the_judge_key_is_a_secret_not_a_setting() -> None:
    with pytest.raises(ConfigError, match="DMEM_JUDGE_API_KEY"):
        build_context(judge_api_key="k")
    assert "judge_api_key" not in build_context(environ={"DMEM_JUDGE_API_KEY": "k"}).model_fields_set


def test_judge_on_the_model_under_test_shares_its_endpoint_slots() -> None:
    chat = make_chat_model("openai-compatible:qwen", base_url="http://127.0.0.1:8081/v1")
    endpoints = Endpoints()
    under_test = endpoints.for_model(chat, 0)
    judge = make_judge(None, chat, build_context(), endpoints)
    assert judge.name == "ChatOpenAI:qwen at http://127.0.0.1:8081/v1"
    assert judge._caller is not None and judge._caller.endpoint is under_test and under_test.limit == 1


def test_usage_fields_report_retries_apart() -> None:
    usage = summarize_usage([Usage(stage="answer", calls=3, input_tokens=300, output_tokens=30, retries=2,
                                   retry_input_tokens=200, retry_output_tokens=20)])
    fields = usage_fields(usage)
    assert fields["calls"] == 3 and fields["retries"] == {"calls": 2, "input_tokens": 200, "output_tokens": 20,
                                                          "seconds": 0.0}
    assert set(fields["stages"]) == {"answer"}
