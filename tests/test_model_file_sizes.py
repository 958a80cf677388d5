"""Rule: a model-file member larger than its bound is refused by the size check, with a message naming the member and
the bound, whether its zip header states its size or understates it (a header is part of the hostile file); a
member whose header misstates its size within the bound is refused as not matching its header."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import pytest

from ccg_env import model_file
from ccg_env.model_file import METADATA_MEMBER, WEIGHTS_MEMBER, ModelFileError, ModelMetadata, read_model_file

WEIGHTS = b"weights bytes, checksummed but never unpickled by the reader"
MEMBER_SIZE_OFFSETS = {b"PK\x01\x02": (24, 28, 46), b"PK\x03\x04": (22, 26, 30)}  # size, name length, name


@pytest.fixture
def honest(tmp_path) -> Path:
    metadata = ModelMetadata("MaskableActorCriticPolicy", {}, 10, False, 5, None, None, "0" * 64)
    return model_file.write_model_file(tmp_path / "honest.ccgmodel", metadata, WEIGHTS)


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def state_size(archive: bytes, name: str, stated: int) -> bytes:
    """``archive`` with the uncompressed size of member ``name`` set to ``stated`` in its local and central headers."""
    data = bytearray(archive)
    for signature, (size_at, name_length_at, name_at) in MEMBER_SIZE_OFFSETS.items():
        start = data.find(signature)
        while start != -1:
            (length,) = struct.unpack_from("<H", data, start + name_length_at)
            if data[start + name_at:start + name_at + length] == name.encode():
                struct.pack_into("<I", data, start + size_at, stated)
            start = data.find(signature, start + 4)
    return bytes(data)


def crafted(path: Path, contents: dict[str, bytes], compression: int, stated: dict[str, int] | None = None) -> Path:
    """A model file of ``contents`` whose headers state the sizes in ``stated`` instead of the true ones."""
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, content in contents.items():
            archive.writestr(name, content)
    raw = path.read_bytes()
    for name, size in (stated or {}).items():
        raw = state_size(raw, name, size)
    path.write_bytes(raw)
    return path


def padded(contents: dict[str, bytes], name: str, size: int) -> dict[str, bytes]:
    """``contents`` with member ``name`` padded to ``size`` bytes (JSON allows trailing spaces; weights are bytes)."""
    return {**contents, name: contents[name] + b" " * (size - len(contents[name]))}


def test_the_helpers_state_a_size_the_reader_believes(honest, tmp_path):
    contents = members(honest)
    path = crafted(tmp_path / "stated.ccgmodel", contents, zipfile.ZIP_STORED, {METADATA_MEMBER: 7})
    with zipfile.ZipFile(path) as archive:
        assert archive.getinfo(METADATA_MEMBER).file_size == 7
        assert archive.getinfo(WEIGHTS_MEMBER).file_size == len(WEIGHTS)
    assert read_model_file(honest)[1] == WEIGHTS  # the unedited file reads


@pytest.mark.parametrize("name", [METADATA_MEMBER, WEIGHTS_MEMBER])
@pytest.mark.parametrize("compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_a_member_over_its_bound_is_refused_naming_its_size_and_the_bound(honest, tmp_path, monkeypatch, name,
                                                                           compression):
    monkeypatch.setattr(model_file, "MAX_METADATA_BYTES", 1_000)
    monkeypatch.setattr(model_file, "MAX_WEIGHTS_BYTES", 1_000)
    path = crafted(tmp_path / "big.ccgmodel", padded(members(honest), name, 1_500), compression)
    with pytest.raises(ModelFileError, match=rf"^{path}: {name} is 1,500 bytes, over the limit of 1,000$"):
        read_model_file(path)


@pytest.mark.parametrize("name", [METADATA_MEMBER, WEIGHTS_MEMBER])
@pytest.mark.parametrize("compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_a_member_over_its_bound_whose_header_understates_its_size_is_refused_by_the_size_check(
        honest, tmp_path, monkeypatch, name, compression):
    monkeypatch.setattr(model_file, "MAX_METADATA_BYTES", 1_000)
    monkeypatch.setattr(model_file, "MAX_WEIGHTS_BYTES", 1_000)
    contents = members(honest)
    path = crafted(tmp_path / "understated.ccgmodel", padded(contents, name, 1_500), compression,
                   {name: len(contents[name])})
    with pytest.raises(ModelFileError, match=rf"^{path}: {name} holds more than the limit of 1,000 bytes \(its zip "
                                             rf"header says {len(contents[name])}\)$"):
        read_model_file(path)


def test_metadata_over_the_real_bound_behind_an_understating_header_is_refused_by_the_size_check(honest, tmp_path):
    contents = members(honest)
    limit = model_file.MAX_METADATA_BYTES
    path = crafted(tmp_path / "bomb.ccgmodel", padded(contents, METADATA_MEMBER, 3 * limit), zipfile.ZIP_DEFLATED,
                   {METADATA_MEMBER: len(contents[METADATA_MEMBER])})
    assert path.stat().st_size < 100_000  # spaces compress: a small file that would decompress past the bound
    with pytest.raises(ModelFileError, match=rf"{METADATA_MEMBER} holds more than the limit of {limit:,} bytes"):
        read_model_file(path)


@pytest.mark.parametrize("stated", [10, 2_000])
@pytest.mark.parametrize("compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_a_member_whose_header_misstates_its_size_within_the_bound_is_refused(honest, tmp_path, stated,
                                                                              compression):
    path = crafted(tmp_path / "misstated.ccgmodel", members(honest), compression, {WEIGHTS_MEMBER: stated})
    with pytest.raises(ModelFileError, match=rf"^{path}: {WEIGHTS_MEMBER} does not match its zip header"):
        read_model_file(path)
