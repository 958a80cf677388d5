"""Hand-made ``torch.save`` archives whose pickle declares what an attacker wants: storage sizes, offsets, strides.

``torch.save`` only writes honest archives; these write the same layout (``archive/data.pkl`` and one
``archive/data/<key>`` record per storage) with every number chosen by the test.
"""

from __future__ import annotations

import collections
import io
import pickle
import zipfile
from dataclasses import dataclass


@dataclass(frozen=True)
class Storage:
    """A storage reference: the key of its record, the elements it declares, and the bytes its record holds."""

    key: str
    declared: int
    record_bytes: int


@dataclass(frozen=True)
class Tensor:
    """A tensor over ``storage``, rebuilt by ``torch._utils._rebuild_tensor_v2`` with these numbers."""

    storage: Storage
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]

    def __reduce__(self):
        import torch

        return torch._utils._rebuild_tensor_v2, (self.storage, self.offset, self.size, self.stride, False,
                                                 collections.OrderedDict())


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        import torch

        if isinstance(obj, Storage):
            return "storage", torch.FloatStorage, obj.key, "cpu", obj.declared
        return None


def raw_archive(pickled: bytes) -> bytes:
    """A torch archive whose ``data.pkl`` is ``pickled`` as given (any opcodes, any declared lengths)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("archive/data.pkl", pickled)
        archive.writestr("archive/version", "3\n")
    return buffer.getvalue()


def crafted_archive(payload: object, storages: list[Storage], compression: int = zipfile.ZIP_STORED) -> bytes:
    """A torch archive holding ``payload`` (dicts of :class:`Tensor`) and a record of the given size per storage
    (compressed with ``compression``: torch.save stores them as they are)."""
    pickled = io.BytesIO()
    _Pickler(pickled, protocol=2).dump(payload)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("archive/data.pkl", pickled.getvalue())
        archive.writestr("archive/byteorder", "little")
        for storage in storages:
            archive.writestr(f"archive/data/{storage.key}", bytes(storage.record_bytes), compress_type=compression)
        archive.writestr("archive/version", "3\n")
    return buffer.getvalue()
