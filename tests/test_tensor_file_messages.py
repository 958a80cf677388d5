"""A hostile weights file's names are shown in the reader's errors cut to 60 characters (their ``repr``), so a file
cannot flood a message, and a name that fits is shown whole."""

from __future__ import annotations

import pytest

from ccg_env.model_file import ModelFileError
from ccg_env.tensor_file import scan_tensors

from .reliability.crafted_weights import Tensor, crafted_archive, raw_archive


def _refused_global(module: str, name: str) -> str:
    """The error for a weights pickle whose first opcode names the global ``module.name`` (protocol 2, GLOBAL)."""
    pickled = b"\x80\x02c" + module.encode() + b"\n" + name.encode() + b"\n."
    with pytest.raises(ModelFileError) as caught:
        scan_tensors(raw_archive(pickled), "weights.pt")
    return str(caught.value)


@pytest.mark.parametrize("length", [57, 58])
def test_a_global_whose_name_fits_in_60_characters_is_shown_whole(length):
    name = "x" * (length - len("os."))
    shown = repr(f"os.{name}")  # the dotted name and its two quotes: 59 or 60 characters
    assert len(shown) == length + 2
    message = _refused_global("os", name)
    assert f"its pickle calls {shown}, which is not a plain tensor" in message, message


@pytest.mark.parametrize("length", [59, 500])
def test_a_longer_global_is_cut_to_57_characters_and_three_dots(length):
    name = "x" * (length - len("os."))
    shown = repr(f"os.{name}")
    message = _refused_global("os", name)
    assert f"its pickle calls {shown[:57]}..., which is not a plain tensor" in message, message
    assert shown[:58] not in message


def test_a_tensor_whose_storage_is_not_a_storage_reference_is_refused_as_not_a_tensor_record():
    pickled = crafted_archive({"weight": Tensor(5, 0, (2,), (1,))}, [])  # the storage is the number 5
    with pytest.raises(ModelFileError, match=r"a tensor record that is not \(storage, offset, shape, strides\)"):
        scan_tensors(pickled, "weights.pt")
