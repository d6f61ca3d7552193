"""The quality figures with another sentence model in the shipped one's place, to measure a candidate
the way the shipped model was chosen (docs/conversations.md, "Measured in session 38"): a folder holding
the candidate as `model.onnx` (its transformer's last hidden state; inputs `input_ids`, `attention_mask`,
and `token_type_ids` if it takes them) and its `tokenizer.json`. Everything else is the shipped path:
onnxruntime on one thread, one text at a time, mean pooling, L2 normalisation.

    python -m tests.insights.other_model DIR            # the --pairs figures with that model
    python -m tests.insights.other_model DIR --sweep    # the thresholds on the select halves

The swap lasts for this process only; nothing here is used by the worker or the tests.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from bindery.engines.insights import embedding
from tests.insights import quality


class _Session:
    """The candidate's onnxruntime session, fed only the inputs it declares (MPNet takes no
    `token_type_ids`, which the shipped path passes)."""

    def __init__(self, path: Path) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(str(path), sess_options=options,
                                                     providers=["CPUExecutionProvider"])
        self._inputs = {item.name for item in self._session.get_inputs()}

    def run(self, outputs: Any, feeds: dict[str, Any]) -> Any:
        return self._session.run(outputs, {name: value for name, value in feeds.items()
                                           if name in self._inputs})


def use_model(folder: Path) -> None:
    """Put the candidate in the shipped model's place for the rest of this process."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=embedding.MAX_TOKENS)
    tokenizer.no_padding()
    loaded = (tokenizer, _Session(folder / "model.onnx"))
    embedding._model = lambda: loaded  # type: ignore[assignment]


if __name__ == "__main__":
    use_model(Path(sys.argv[1]))
    quality.main(sweep="--sweep" in sys.argv, pairs="--sweep" not in sys.argv)
