"""Reading conversation datasets (LoCoMo, RealTalk), for `dmem add` and the evaluation harness alike."""
