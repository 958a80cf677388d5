"""Reading a model file's ``weights.pt`` (``torch.save`` of plain tensors) without trusting it: one reader for both
model formats (:mod:`ccg_env.saved_policy` and :mod:`ccg_env.rllib.policy_file`).

Before ``torch.load`` runs, :func:`scan_tensors` walks the archive's pickle opcodes (every length they declare must
be present) and reads it with a stand-in unpickler that builds nothing: every storage must be an uncompressed record
of exactly its declared size, and every tensor a contiguous view inside its storage (no stride or expand tricks
that make a few bytes stand for a huge tensor), with the total number of elements bounded. Only then does ``torch.load(weights_only=True)`` read it, and floating tensors holding
``nan`` or ``inf`` are refused (:func:`load_tensors`). :func:`check_module_size` bounds the module a file's metadata
describes (its state dict built on torch's meta device) before it is built for real.
"""

from __future__ import annotations

import collections
import io
import math
import pickle
import pickletools
import zipfile
from dataclasses import dataclass
from typing import Any, Iterator

from .model_file import MAX_WEIGHTS_BYTES, ModelFileError

#: Largest pickle (the tensors' names and shapes) in a weights file; a policy's is a few kilobytes.
MAX_PICKLE_BYTES = 4_000_000
#: Most tensors, dimensions of one tensor, and elements of all tensors together that a weights file may declare.
MAX_TENSORS = 10_000
MAX_DIMENSIONS = 8
MAX_ELEMENTS = MAX_WEIGHTS_BYTES // 4
#: Pickle opcodes refused before unpickling: byte arrays (allocated at their declared size) and out-of-band buffers.
_REFUSED_OPCODES = {"BYTEARRAY8", "NEXT_BUFFER", "READONLY_BUFFER"}
#: Storage classes a weights file may name -> bytes per element.
ELEMENT_BYTES = {"FloatStorage": 4, "DoubleStorage": 8, "HalfStorage": 2, "BFloat16Storage": 2, "LongStorage": 8,
                 "IntStorage": 4, "ShortStorage": 2, "CharStorage": 1, "ByteStorage": 1, "BoolStorage": 1}


@dataclass(frozen=True)
class _StorageType:
    """Stands for a storage class the pickle names (``torch.FloatStorage``...)."""

    name: str


@dataclass(frozen=True)
class _Storage:
    """Stands for a storage the pickle references: its class, its record's key and its declared elements."""

    kind: str
    key: str
    numel: int


@dataclass(frozen=True)
class TensorScan:
    """What a weights file declares: its number of tensors and their elements in all."""

    tensors: int
    elements: int


class _Scanner(pickle.Unpickler):
    """Walks ``data.pkl`` building only markers; refuses any global but the tensor rebuilder and storage classes."""

    def __init__(self, data: bytes, records: dict[str, zipfile.ZipInfo], prefix: str, where: str) -> None:
        super().__init__(io.BytesIO(data))
        self.records, self.prefix, self.where = records, prefix, where
        self.tensors = 0
        self.elements = 0

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return self._tensor
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if module == "torch" and name in ELEMENT_BYTES:
            return _StorageType(name)
        raise ModelFileError(f"{self.where}: its pickle calls {_quoted(f'{module}.{name}')}, which is not a plain "
                             f"tensor or storage (refused before anything ran)")

    def persistent_load(self, saved_id: Any) -> _Storage:
        ok = (isinstance(saved_id, tuple) and len(saved_id) == 5 and saved_id[0] == "storage"
              and isinstance(saved_id[1], _StorageType) and isinstance(saved_id[2], str)
              and isinstance(saved_id[4], int) and not isinstance(saved_id[4], bool) and saved_id[4] >= 0)
        if not ok:
            raise ModelFileError(f"{self.where}: a storage reference that is not (storage, class, key, location, "
                                 f"size)")
        kind, key, numel = saved_id[1].name, saved_id[2], saved_id[4]
        record = self.records.get(f"{self.prefix}data/{key}")
        if record is None:
            raise ModelFileError(f"{self.where}: storage {_quoted(key)} has no data record")
        if record.file_size != numel * ELEMENT_BYTES[kind]:
            raise ModelFileError(f"{self.where}: storage {_quoted(key)} declares {numel:,} elements of "
                                 f"{ELEMENT_BYTES[kind]} bytes but its record holds {record.file_size:,} bytes")
        return _Storage(kind, key, numel)

    def _tensor(self, storage: Any, offset: Any, size: Any, stride: Any, *rest: Any) -> str:
        """Check one tensor against its storage; return a marker (nothing is allocated)."""
        if not isinstance(storage, _Storage) or not _whole_numbers(size) or not _whole_numbers(stride) \
                or len(size) != len(stride) or len(size) > MAX_DIMENSIONS or not _whole_numbers((offset,)):
            raise ModelFileError(f"{self.where}: a tensor record that is not (storage, offset, shape, strides)")
        numel = math.prod(size)
        if numel and tuple(stride) != _contiguous(size):
            raise ModelFileError(f"{self.where}: a tensor of shape {list(size)[:8]} with strides {list(stride)[:8]}; "
                                 f"only contiguous tensors are read (no stride or expand tricks)")
        if offset + numel > storage.numel:
            raise ModelFileError(f"{self.where}: a tensor of shape {list(size)} at offset {offset:,} reaches past "
                                 f"its storage of {storage.numel:,} elements")
        self.tensors += 1
        self.elements += numel
        if self.tensors > MAX_TENSORS or self.elements > MAX_ELEMENTS:
            raise ModelFileError(f"{self.where}: more than {MAX_TENSORS:,} tensors or {MAX_ELEMENTS:,} elements "
                                 f"in all")
        return "tensor"


def _whole_numbers(values: Any) -> bool:
    return isinstance(values, tuple) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                             for n in values)


def _contiguous(size: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for extent in reversed(size):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def _quoted(text: Any) -> str:
    shown = repr(text)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _check_opcodes(pickled: bytes, where: str) -> None:
    """Walk the pickle's opcodes without running them: every length it declares must be there (an unpickler
    allocates a declared length before reading it), and no opcode may build byte arrays or out-of-band buffers."""
    try:
        for opcode, _, _ in pickletools.genops(pickled):
            if opcode.name in _REFUSED_OPCODES:
                raise ModelFileError(f"{where}: its pickle uses {opcode.name}, which plain tensors never need")
    except ModelFileError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, MemoryError) as error:
        raise ModelFileError(f"{where}: its pickle is damaged: {_quoted(str(error))}") from None


def scan_tensors(data: bytes, where: str) -> TensorScan:
    """Check what ``torch.load`` would allocate for ``data`` (a ``torch.save`` archive), allocating nothing.

    Raises:
        ModelFileError: not a torch archive, a compressed record, a storage whose record differs from its declared
            size, a tensor that is not a contiguous view inside its storage, or too many tensors or elements.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            records = {info.filename: info for info in archive.infolist()}
            pickles = [name for name in records if name.endswith("/data.pkl") and name.count("/") == 1]
            if len(pickles) != 1:
                raise ModelFileError(f"{where}: not a torch.save archive (no single <folder>/data.pkl)")
            prefix = pickles[0][: -len("data.pkl")]
            for info in records.values():
                if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
                    raise ModelFileError(f"{where}: record {_quoted(info.filename)} is compressed; torch.save "
                                         f"stores records as they are")
            if records[pickles[0]].file_size > MAX_PICKLE_BYTES:
                raise ModelFileError(f"{where}: its pickle is over {MAX_PICKLE_BYTES:,} bytes")
            pickled = archive.read(pickles[0])
    except (zipfile.BadZipFile, OSError, RuntimeError, ValueError) as error:
        if isinstance(error, ModelFileError):
            raise
        raise ModelFileError(f"{where}: not a torch.save archive: {_quoted(str(error))}") from None
    _check_opcodes(pickled, where)
    scanner = _Scanner(pickled, records, prefix, where)
    try:
        scanner.load()
    except ModelFileError:
        raise
    except (pickle.UnpicklingError, ValueError, TypeError, KeyError, IndexError, EOFError, AttributeError,
            MemoryError, RecursionError, OverflowError) as error:
        raise ModelFileError(f"{where}: its pickle is not plain tensors: {type(error).__name__}: "
                             f"{_quoted(str(error))}") from None
    return TensorScan(scanner.tensors, scanner.elements)


def load_tensors(data: bytes, where: str) -> Any:
    """``torch.load(weights_only=True)`` of ``data`` once :func:`scan_tensors` has bounded it; refuses non-finite
    floating values."""
    import torch

    scan_tensors(data, where)
    try:
        payload = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as error:  # UnpicklingError for a refused object; RuntimeError etc. for a damaged file
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ModelFileError(f"{where}: refused by torch.load(weights_only=True), which loads plain tensors only: "
                             f"{reason[:300]}") from None
    for name, tensor in _tensors(payload, ""):
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            raise ModelFileError(f"{where}: tensor {_quoted(name)} holds nan or inf")
    return payload


def _tensors(value: Any, name: str) -> Iterator[tuple[str, Any]]:
    import torch

    if isinstance(value, torch.Tensor):
        yield name, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _tensors(item, f"{name}.{key}" if name else str(key))


def check_module_size(state: dict[str, Any], where: str) -> None:
    """Refuse a module whose parameters and buffers (``state``: its state dict, built on torch's meta device, so
    nothing was allocated) would take more than a weights file may hold (``MAX_WEIGHTS_BYTES``)."""
    planned = sum(tensor.numel() * tensor.element_size() for tensor in state.values())
    if planned > MAX_WEIGHTS_BYTES:
        raise ModelFileError(f"{where}: the metadata describes a network of {planned / 1e6:,.0f} MB of weights, more "
                             f"than the {MAX_WEIGHTS_BYTES / 1e6:,.0f} MB a model file may hold")
