"""The weights reader's rules (:mod:`ccg_env.tensor_file`), each stated at its boundary on hand-made archives: what a
storage reference, a storage record and a tensor record must be, the bounds on tensors, elements, dimensions and the
pickle, the refused opcodes and compressed records, and what ``load_tensors`` refuses after ``torch.load``."""

from __future__ import annotations

import collections
import io
import pickle
import struct
import zipfile

import pytest

from ccg_env.model_file import MAX_WEIGHTS_BYTES, ModelFileError
from ccg_env.tensor_file import (ELEMENT_BYTES, MAX_DIMENSIONS, MAX_ELEMENTS, MAX_PICKLE_BYTES, MAX_TENSORS,
                                 TensorScan, check_module_size, load_tensors, scan_tensors)

from .reliability.crafted_weights import raw_archive

torch = pytest.importorskip("torch")


class Ref:
    """A storage reference pickled as the persistent id ``ident`` (any tuple, honest or not)."""

    def __init__(self, *ident):
        self.ident = ident


class Rebuilt:
    """A tensor record: ``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict())``."""

    def __init__(self, storage, offset, size, stride):
        self.arguments = (storage, offset, size, stride)

    def __reduce__(self):
        return torch._utils._rebuild_tensor_v2, (*self.arguments, False, collections.OrderedDict())


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        return obj.ident if isinstance(obj, Ref) else None


def archive(payload, records: dict[str, int], folder: str = "archive", compress: int = zipfile.ZIP_STORED) -> bytes:
    """A torch.save-shaped archive: ``payload`` pickled as ``<folder>/data.pkl``, and ``records`` (key -> bytes) as
    ``<folder>/data/<key>``."""
    pickled = io.BytesIO()
    _Pickler(pickled, protocol=2).dump(payload)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        target.writestr(f"{folder}/data.pkl", pickled.getvalue())
        for key, size in records.items():
            target.writestr(f"{folder}/data/{key}", bytes(size), compress_type=compress)
    return buffer.getvalue()


def floats(key: str, numel: int) -> Ref:
    return Ref("storage", torch.FloatStorage, key, "cpu", numel)


def one_tensor(size, stride, offset=0, numel=None) -> bytes:
    """An archive of one float tensor over a storage of ``numel`` elements (default: just enough)."""
    numel = max(offset + _product(size), 1) if numel is None else numel
    return archive({"w": Rebuilt(floats("0", numel), offset, tuple(size), tuple(stride))}, {"0": 4 * numel})


def _product(size) -> int:
    total = 1
    for extent in size:
        total *= extent
    return total


def refused(data: bytes, message: str) -> None:
    """``scan_tensors`` refuses ``data`` with a one-line error that names the file first and matches ``message``."""
    with pytest.raises(ModelFileError, match=message) as caught:
        scan_tensors(data, "weights.pt")
    assert str(caught.value).startswith("weights.pt: ") and "\n" not in str(caught.value)


# --- storage references ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("ident", [
    ("storage", torch.FloatStorage, "0", "cpu", True),  # a bool is not a size
    ("storage", torch.FloatStorage, "0", "cpu", -1),
    ("storage", torch.FloatStorage, "0", "cpu", 1.0),
    ("storage", torch.FloatStorage, 0, "cpu", 1),  # the key is not a string
    ("storage", "FloatStorage", "0", "cpu", 1),  # the class is not a storage class the pickle named
    ("tensor", torch.FloatStorage, "0", "cpu", 1),
    ("storage", torch.FloatStorage, "0", "cpu"),
    ("storage", torch.FloatStorage, "0", "cpu", 1, 1),
], ids=["bool size", "negative size", "float size", "int key", "str class", "not storage", "four", "six"])
def test_rule_a_storage_reference_is_storage_class_key_location_and_a_whole_size(ident):
    data = archive({"w": Rebuilt(Ref(*ident), 0, (1,), (1,))}, {"0": 4})
    refused(data, r"a storage reference that is not \(storage, class, key, location, size\)")


def test_rule_a_storage_reference_that_is_not_a_tuple_is_refused():
    class ListPickler(pickle.Pickler):
        def persistent_id(self, obj):
            return ["storage", torch.FloatStorage, "0", "cpu", 1] if isinstance(obj, Ref) else None

    pickled = io.BytesIO()
    ListPickler(pickled, protocol=2).dump({"w": Rebuilt(Ref(), 0, (1,), (1,))})
    refused(raw_archive(pickled.getvalue()), r"a storage reference that is not")


def test_rule_a_storage_needs_its_data_record_under_the_pickles_folder():
    refused(archive({"w": Rebuilt(floats("7", 1), 0, (1,), (1,))}, {"0": 4}), r"storage '7' has no data record")


@pytest.mark.parametrize("kind", sorted(ELEMENT_BYTES))
def test_rule_a_storage_record_holds_exactly_its_elements_times_the_classes_element_size(kind):
    per = ELEMENT_BYTES[kind]
    ref = Ref("storage", getattr(torch, kind), "0", "cpu", 3)
    assert scan_tensors(archive({"w": Rebuilt(ref, 0, (3,), (1,))}, {"0": 3 * per}), "w") == TensorScan(1, 3)
    for wrong in (3 * per - 1, 3 * per + 1):
        refused(archive({"w": Rebuilt(ref, 0, (3,), (1,))}, {"0": wrong}),
                rf"storage '0' declares 3 elements of {per} bytes but its record holds {wrong} bytes")


# --- tensor records -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("offset, size, stride", [
    (-1, (1,), (1,)), (True, (1,), (1,)), (0.0, (1,), (1,)),
    (0, [1], (1,)), (0, (1,), [1]), (0, (-1,), (1,)), (0, (1,), (-1,)), (0, (True,), (1,)), (0, (1,), (True,)),
    (0, (2,), (1, 1)), (0, (2, 1), (1,)),
], ids=["negative offset", "bool offset", "float offset", "list size", "list stride", "negative size",
        "negative stride", "bool size", "bool stride", "fewer sizes", "fewer strides"])
def test_rule_a_tensor_record_is_whole_offset_shape_and_strides_of_one_length(offset, size, stride):
    data = archive({"w": Rebuilt(floats("0", 4), offset, size, stride)}, {"0": 16})
    refused(data, r"a tensor record that is not \(storage, offset, shape, strides\)")


def test_rule_a_tensor_has_at_most_max_dimensions():
    shape = (1,) * MAX_DIMENSIONS
    assert scan_tensors(one_tensor(shape, shape), "w") == TensorScan(1, 1)
    refused(one_tensor((1,) * (MAX_DIMENSIONS + 1), (1,) * (MAX_DIMENSIONS + 1)), "a tensor record that is not")


@pytest.mark.parametrize("size, stride", [((2, 3), (3, 1)), ((3, 1), (1, 1)), ((1, 3), (3, 1)),
                                          ((2, 1, 4), (4, 4, 1)), ((5,), (1,)), ((), ())])
def test_rule_contiguous_tensors_are_read_size_one_dimensions_included(size, stride):
    assert scan_tensors(one_tensor(size, stride), "w") == TensorScan(1, _product(size))


@pytest.mark.parametrize("size, stride", [((2, 3), (1, 2)), ((4,), (0,)), ((3, 1), (2, 1)), ((2, 2), (2, 2))])
def test_rule_a_tensor_with_other_strides_is_refused(size, stride):
    refused(one_tensor(size, stride, numel=16), r"only contiguous tensors are read")


def test_rule_an_empty_tensor_may_have_any_strides():
    assert scan_tensors(one_tensor((0, 3), (7, 9), numel=1), "w") == TensorScan(1, 0)


def test_rule_a_tensor_ends_within_its_storage():
    assert scan_tensors(one_tensor((3,), (1,), offset=2, numel=5), "w") == TensorScan(1, 3)
    refused(one_tensor((3,), (1,), offset=3, numel=5), r"at offset 3 reaches past its storage of 5 elements")


def test_rule_at_most_max_tensors():
    shared = floats("0", 1)
    honest = archive({str(n): Rebuilt(shared, 0, (1,), (1,)) for n in range(MAX_TENSORS)}, {"0": 4})
    assert scan_tensors(honest, "w") == TensorScan(MAX_TENSORS, MAX_TENSORS)
    over = archive({str(n): Rebuilt(shared, 0, (1,), (1,)) for n in range(MAX_TENSORS + 1)}, {"0": 4})
    refused(over, rf"more than {MAX_TENSORS:,} tensors")


def test_rule_at_most_max_elements_in_all_tensors_together():
    part = MAX_ELEMENTS // 64  # 64 tensors over one storage of 4 MB
    shared = floats("0", part)
    tensors = {str(n): Rebuilt(shared, 0, (part,), (1,)) for n in range(64)}
    assert scan_tensors(archive(tensors, {"0": 4 * part}), "w") == TensorScan(64, MAX_ELEMENTS)
    tensors["extra"] = Rebuilt(shared, 0, (1,), (1,))
    refused(archive(tensors, {"0": 4 * part}), rf"{MAX_ELEMENTS:,} elements in all")


# --- the archive and its pickle ----------------------------------------------------------------------------------

def test_rule_a_torch_archive_has_one_data_pickle_one_folder_deep():
    assert scan_tensors(archive({"w": Rebuilt(floats("0", 1), 0, (1,), (1,))}, {"0": 4}, folder="model"),
                        "w") == TensorScan(1, 1)
    refused(archive({}, {}, folder="a/b"), r"not a torch.save archive \(no single <folder>/data.pkl\)")
    two = io.BytesIO()
    with zipfile.ZipFile(two, "w") as target:
        target.writestr("a/data.pkl", pickle.dumps({}, protocol=2))
        target.writestr("b/data.pkl", pickle.dumps({}, protocol=2))
    refused(two.getvalue(), r"no single <folder>/data.pkl")
    refused(b"not a zip", r"not a torch.save archive: ")


def test_rule_every_record_is_stored_uncompressed():
    payload = {"w": Rebuilt(floats("0", 100), 0, (100,), (1,))}
    assert scan_tensors(archive(payload, {"0": 400}), "w") == TensorScan(1, 100)
    refused(archive(payload, {"0": 400}, compress=zipfile.ZIP_DEFLATED), r"record 'archive/data/0' is compressed")


def test_rule_the_pickle_is_at_most_max_pickle_bytes():
    def string_pickle(total: int) -> bytes:
        body = total - len(b"\x80\x02X") - 4 - len(b".")
        return b"\x80\x02X" + struct.pack("<I", body) + b"a" * body + b"."

    assert scan_tensors(raw_archive(string_pickle(MAX_PICKLE_BYTES)), "w") == TensorScan(0, 0)
    refused(raw_archive(string_pickle(MAX_PICKLE_BYTES + 1)), rf"its pickle is over {MAX_PICKLE_BYTES:,} bytes")


@pytest.mark.parametrize("opcode, name", [(b"\x96", "BYTEARRAY8"), (b"\x97", "NEXT_BUFFER"),
                                          (b"\x98", "READONLY_BUFFER")])
def test_rule_byte_arrays_and_out_of_band_buffers_are_refused_before_unpickling(opcode, name):
    body = struct.pack("<Q", 0) if name == "BYTEARRAY8" else b""
    refused(raw_archive(b"\x80\x05" + opcode + body + b"."), rf"its pickle uses {name}, which plain tensors never")


def test_rule_a_pickle_declaring_more_bytes_than_it_holds_is_damaged():
    refused(raw_archive(b"\x80\x02X" + struct.pack("<I", 1_000_000) + b"short."), r"its pickle is damaged: ")


def test_rule_a_pickle_that_is_not_plain_tensors_is_refused_with_the_error_type():
    refused(raw_archive(b"\x80\x02."), r"its pickle is not plain tensors: UnpicklingError: ")


# --- torch.load and the values -----------------------------------------------------------------------------------

def _saved(payload) -> bytes:
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    return buffer.getvalue()


def test_rule_load_tensors_returns_what_torch_saved():
    loaded = load_tensors(_saved({"policy": {"w": torch.arange(6.0).reshape(2, 3)}}), "w")
    assert torch.equal(loaded["policy"]["w"], torch.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_rule_a_floating_tensor_holding_nan_or_inf_is_refused_by_its_dotted_name(value):
    payload = {"policy": {"layer": torch.tensor([1.0, value])}, "bounds": torch.zeros(2)}
    with pytest.raises(ModelFileError, match=r"^w.pt: tensor 'policy.layer' holds nan or inf$"):
        load_tensors(_saved(payload), "w.pt")
    with pytest.raises(ModelFileError, match=r"tensor 'top' holds nan or inf"):
        load_tensors(_saved({"top": torch.tensor([value], dtype=torch.float16)}), "w.pt")


def test_rule_integer_and_finite_tensors_are_loaded():
    loaded = load_tensors(_saved({"steps": torch.tensor([2**62]), "w": torch.ones(2)}), "w")
    assert loaded["steps"].item() == 2**62


def test_rule_torch_loads_refusal_is_shown_by_its_first_line():
    with pytest.raises(ModelFileError) as caught:
        load_tensors(_refused_by_torch(), "w.pt")
    message = str(caught.value)
    assert message.startswith("w.pt: refused by torch.load(weights_only=True), which loads plain tensors only: ")
    assert message.endswith("Couldn't parse the version not a version")  # torch's first line, the second left out


def test_rule_a_torch_load_error_without_a_message_is_shown_by_its_type(monkeypatch):
    def fails(*args, **kwargs):
        raise RuntimeError("  ")

    monkeypatch.setattr(torch, "load", fails)
    with pytest.raises(ModelFileError, match=r"which loads plain tensors only: RuntimeError$"):
        load_tensors(_saved({"w": torch.ones(1)}), "w.pt")


def test_rule_a_long_torch_load_error_is_cut_to_300_characters(monkeypatch):
    def fails(*args, **kwargs):
        raise RuntimeError("x" * 301 + "END\nsecond line")

    monkeypatch.setattr(torch, "load", fails)
    with pytest.raises(ModelFileError) as caught:
        load_tensors(_saved({"w": torch.ones(1)}), "w.pt")
    assert str(caught.value).endswith("only: " + "x" * 300)


def _saved_and_rewritten(tensors: dict, member: str, rewrite) -> bytes:
    """torch.save's archive of ``tensors`` with the member whose name ends with ``member`` replaced by
    ``rewrite(its content)``."""
    buffer = io.BytesIO()
    torch.save(tensors, buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            content = source.read(info)
            target.writestr(info.filename, rewrite(content) if info.filename.endswith(member) else content)
    return out.getvalue()


def _refused_by_torch() -> bytes:
    """An archive the scan accepts (a storage and its record) that torch.load refuses: its version record is not a
    number."""
    return _saved_and_rewritten({"w": torch.ones(1)}, "/version", lambda content: b"not a version\nsecond line\n")


# --- the module's size -------------------------------------------------------------------------------------------

def test_rule_a_module_of_exactly_max_weights_bytes_is_allowed_one_byte_more_is_not():
    check_module_size({"w": torch.empty(MAX_WEIGHTS_BYTES, dtype=torch.uint8, device="meta")}, "m")
    check_module_size({"a": torch.empty(MAX_WEIGHTS_BYTES // 8, dtype=torch.float32, device="meta"),
                       "b": torch.empty(MAX_WEIGHTS_BYTES // 16, dtype=torch.float64, device="meta")}, "m")
    with pytest.raises(ModelFileError, match=r"^m: the metadata describes a network of 256 MB of weights"):
        check_module_size({"w": torch.empty(MAX_WEIGHTS_BYTES + 1, dtype=torch.uint8, device="meta")}, "m")
    with pytest.raises(ModelFileError, match=r"network of 256 MB"):  # bytes, not elements: float32 counts 4 each
        check_module_size({"w": torch.empty(MAX_WEIGHTS_BYTES // 4 + 1, dtype=torch.float32, device="meta")}, "m")


def _with_note(protocol: int) -> bytes:
    """Weights with a bytes value beside the tensor, pickled at ``protocol`` (3: BINBYTES, which the scan lets
    through and only torch's weights-only reader refuses)."""
    buffer = io.BytesIO()
    torch.save({"w": torch.ones(1), "note": b"x"}, buffer, pickle_protocol=protocol)
    return buffer.getvalue()


@pytest.mark.parametrize("forced", [None, "1"], ids=["default", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1"])
def test_rule_torch_load_reads_weights_only_whatever_the_environment_asks(forced, monkeypatch):
    if forced:
        monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", forced)
    assert scan_tensors(_with_note(3), "w") == TensorScan(1, 1)  # the scan lets bytes through
    with pytest.raises(ModelFileError, match=r"refused by torch.load\(weights_only=True\)"):
        load_tensors(_with_note(3), "w.pt")


def _relocated(location: bytes) -> bytes:
    """torch.save's archive of one tensor with its storage's recorded location replaced by ``location``."""
    def relocate(content: bytes) -> bytes:
        assert content.count(b"X\x03\x00\x00\x00cpu") == 1
        return content.replace(b"X\x03\x00\x00\x00cpu", b"X" + struct.pack("<I", len(location)) + location)

    return _saved_and_rewritten({"w": torch.ones(2)}, "/data.pkl", relocate)


def test_rule_tensors_are_loaded_onto_the_cpu_wherever_they_were_saved():
    loaded = load_tensors(_relocated(b"cuda:0"), "w")
    assert loaded["w"].device.type == "cpu" and loaded["w"].tolist() == [1.0, 1.0]


def test_rule_a_weights_file_that_is_one_bare_tensor_names_it_by_the_empty_name():
    with pytest.raises(ModelFileError, match=r"^w.pt: tensor '' holds nan or inf$"):
        load_tensors(_saved(torch.tensor([float("nan")])), "w.pt")
    assert load_tensors(_saved(torch.ones(2)), "w.pt").tolist() == [1.0, 1.0]


def test_rule_an_empty_storage_of_0_elements_is_a_storage():
    empty = archive({"w": Rebuilt(floats("0", 0), 0, (0,), (1,))}, {"0": 0})
    assert scan_tensors(empty, "w") == TensorScan(1, 0)
    assert load_tensors(_saved({"w": torch.empty(0)}), "w")["w"].numel() == 0


@pytest.mark.parametrize("module, name", [("torch", "load"), ("torch", "save"), ("os", "FloatStorage"),
                                          ("torch.nn", "Module"), ("collections", "deque")])
def test_rule_the_pickle_may_name_only_the_tensor_rebuilder_ordered_dicts_and_torchs_storage_classes(module, name):
    pickled = b"\x80\x02c" + module.encode() + b"\n" + name.encode() + b"\n."
    refused(raw_archive(pickled), rf"its pickle calls '{module}.{name}', which is not a plain tensor or storage")


def test_rule_a_stored_record_whose_sizes_disagree_is_refused_like_a_compressed_one():
    data = bytearray(archive({"w": Rebuilt(floats("0", 1), 0, (1,), (1,))}, {"0": 4}))
    entry = data.index(b"PK\x01\x02")  # the first central directory entry
    while data[entry + 46: entry + 46 + len(b"archive/data/0")] != b"archive/data/0":
        entry = data.index(b"PK\x01\x02", entry + 4)
    data[entry + 20: entry + 24] = struct.pack("<I", 3)  # the central directory's compressed size: 3 bytes, not 4
    refused(bytes(data), r"record 'archive/data/0' is compressed")
