"""Decision engines behind one ``Decider`` protocol: ``model`` (a chat model) and ``offline`` (rules)."""

from dmem.decisions.base import Decided, Decider

__all__ = ["Decided", "Decider"]
