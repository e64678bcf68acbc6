"""The model-backed decision engine: a chat model with our prompts, checked cheaply afterwards."""

from dmem.decisions.model.decider import ModelDecider

__all__ = ["ModelDecider"]
