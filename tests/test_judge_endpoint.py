"""The eval judge talks to its own endpoint, and reports name the model (and server) that really judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dmem.cli import build_parser
from dmem.errors import ConfigError
from dmem.eval.cli import config_from_args
from dmem.eval.judge import make_judge, usage_fields
from dmem.eval.runner import EvalRunner
from dmem.eval.settings import JudgeSettings, split_judge_settings
from dmem.models.chat import make_chat_model
from dmem.models.endpoints import Endpoints
from dmem.state.context import Context, build_context
from dmem.state.schemas import Usage, summarize_usage


def test_judge_never_borrows_the_base_url_of_the_model_under_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    ctx = build_context(chat_model="llamacpp:qwen", base_url="http://127.0.0.1:8081/v1")
    judge = make_judge(None, None, ctx, settings=JudgeSettings(judge_model="openai:gpt-4o"))
    assert judge.name == "openai:gpt-4o"
    assert judge._caller is not None
    assert str(judge._caller.model.openai_api_base or "https://api.openai.com/v1").startswith("https://api.openai")  # type: ignore[attr-defined]


def test_judge_on_its_own_server_is_named_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DMEM_API_KEY", "sk-model-under-test")
    monkeypatch.setenv("DMEM_JUDGE_API_KEY", "sk-judge")
    ctx = build_context(base_url="http://127.0.0.1:8081/v1")
    judge = make_judge(None, None, ctx, settings=JudgeSettings(judge_model="openai-compatible:judge-7b",
                                                               judge_base_url="http://10.0.0.5:8000/v1"))
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


def test_the_judge_settings_are_the_harness_s_not_the_product_s(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not {"judge_model", "judge_base_url"} & set(Context.model_fields)
    with pytest.raises(ConfigError, match="evaluation harness.*--judge-model"):
        build_context(judge_model="openai:gpt-4o")
    monkeypatch.setenv("DMEM_JUDGE_MODEL", "openai:gpt-4o")  # a shell set up for dmem eval still opens a Memory
    assert "judge_model" not in build_context().model_fields_set


def test_judge_settings_options_beat_variables_which_beat_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "dmem.toml"
    config.write_text('judge_model = "openai:from-file"\njudge_base_url = "http://file:1/v1"\nretrieval_top_k = 7\n')
    env = {"DMEM_JUDGE_MODEL": "openai:from-env"}
    judge, rest = split_judge_settings({"judge_base_url": "http://set:2/v1", "vote_samples": "5"}, config, env)
    assert judge == JudgeSettings(judge_model="openai:from-env", judge_base_url="http://set:2/v1")
    assert rest == {"vote_samples": "5"}
    assert build_context(config_file=config, environ={}).retrieval_top_k == 7  # the product skips the judge keys


def test_dmem_eval_takes_the_judge_endpoint_as_an_option_or_a_set(tmp_path: Path) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps([{"sample_id": "c1", "conversation": {
        "speaker_a": "Odile", "speaker_b": "Bram", "session_1_date_time": "1:00 pm on 3 March, 2026",
        "session_1": [{"speaker": "Odile", "dia_id": "D1:1", "text": "I swim at the lido on Sundays."}]},
        "qa": [{"question": "Where does Odile swim?", "answer": "the lido", "category": 4, "evidence": ["D1:1"]}]}]))
    for extra in (["--judge-base-url", "http://10.0.0.5:8000/v1"], ["--set", "judge_base_url=http://10.0.0.5:8000/v1"]):
        args = build_parser().parse_args(["eval", "locomo", str(data), "--out", str(tmp_path / "out"),
                                          "--judge-model", "openai-compatible:judge-7b", *extra])
        runner = EvalRunner(config_from_args(args))
        assert runner.judge_settings.judge_base_url == "http://10.0.0.5:8000/v1"
        assert runner.cfg.judge == "openai-compatible:judge-7b"
