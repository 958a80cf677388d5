"""Hostile data files and saved states: alias bombs, deep nesting, huge numbers and zones are refused quickly.

The costly cases run in a subprocess that reports its time and peak memory (``VmHWM``): before these
checks a 400-byte YAML alias bomb took minutes and gigabytes, and a deeply nested JSON state let
``RecursionError`` escape. The bounds asserted are generous (a shared machine) yet far below the old behaviour.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ccg_env.engine import DataError, Game, Rules, StateError, load_cards
from ccg_env.engine.datafiles import MAX_FILE_BYTES, MAX_NESTING, read_yaml
from ccg_env.engine.errors import shown
from ccg_env.engine.rules import RANGES
from ccg_env.engine.serialize import MAX_NUMBER, MAX_STATE_CHARS

from .child_process import PEAK_MB_PRELUDE


def alias_bomb(levels: int = 10, width: int = 9) -> str:
    """A YAML file of a few hundred bytes whose aliases expand to ``width ** levels`` values."""
    lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def card_bomb(levels: int = 10, width: int = 9) -> str:
    """A card file whose card defines the bomb in its text and lists it as keywords (an error quoted it whole)."""
    anchors = [f"&a0 [{', '.join(['lol'] * width)}]"]
    anchors += [f"&a{level} [{', '.join([f'*a{level - 1}'] * width)}]" for level in range(1, levels - 1)]
    return ("cards:\n  - id: bomb\n    name: Bomb\n    type: minion\n    cost: 1\n    attack: 1\n    health: 1\n"
            f"    text: [{', '.join(anchors)}]\n    keywords: [{', '.join([f'*a{levels - 2}'] * width)}]\n")


MEASURE = PEAK_MB_PRELUDE + textwrap.dedent("""
    import ccg_env.engine as engine
    from ccg_env.engine import Game, Rules, load_cards
    kind, path = sys.argv[1], sys.argv[2]
    before = peak_mb()
    start = time.perf_counter()
    try:
        if kind == "cards":
            load_cards([path])
        elif kind == "rules":
            Rules.load(path)
        else:
            Game.from_json(open(path, encoding="utf-8").read())
        error = None
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    print(json.dumps({"error": error, "seconds": time.perf_counter() - start, "before_mb": before,
                      "maxrss_mb": peak_mb()}))
""")


def measure(kind: str, path) -> dict:
    done = subprocess.run([sys.executable, "-c", MEASURE, kind, str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def assert_cheap(report: dict) -> None:
    """Refused within 2 s, the whole process (interpreter and engine, about 35 MB) staying under 100 MB."""
    assert report["seconds"] < 2.0, report
    assert report["maxrss_mb"] < 100, report
    assert len(report["error"]) < 600, report


@pytest.mark.subprocess_bounds
def test_a_yaml_alias_bomb_in_a_card_file_is_refused_at_once(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(card_bomb())
    assert len(path.read_bytes()) < 700
    report = measure("cards", path)
    assert report["error"].startswith(f"DataError: {path}: YAML anchors and aliases (&name, *name) are not allowed")
    assert "(line 8, column 12)" in report["error"]
    assert_cheap(report)


@pytest.mark.subprocess_bounds
def test_a_yaml_alias_bomb_in_a_rules_file_is_refused_at_once(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(alias_bomb() + "max_hand: *a9\n")
    report = measure("rules", path)
    assert "YAML anchors and aliases" in report["error"]
    assert_cheap(report)


@pytest.mark.subprocess_bounds
def test_a_deeply_nested_json_state_is_a_state_error_naming_where(tmp_path):
    prefix = '{"format": "ccg-env/state", "version": 1, "rules": '
    path = tmp_path / "deep.json"
    path.write_text(prefix + "[" * 200_000 + "]" * 200_000 + "}")
    report = measure("state", path)
    assert report["error"] == (f"StateError: not a JSON document: nested more than 100 levels deep at character "
                               f"{len(prefix) + 99} (line 1)")
    assert_cheap(report)


@pytest.mark.parametrize("depth, message", [
    (MAX_NESTING + 5, rf"nested more than {MAX_NESTING} levels deep \(line 1, column {MAX_NESTING + 7}\)"),
    (5000, r"not valid YAML: .*exceeded maximum nesting depth"),  # the parser's own, lower than Python's limit
])
def test_yaml_nested_too_deeply_is_refused(tmp_path, depth, message):
    path = tmp_path / "deep.yaml"
    path.write_text("cards: " + "[" * depth + "]" * depth + "\n")
    with pytest.raises(DataError, match=message):
        load_cards([path])


def test_nesting_is_counted_from_where_a_closed_sibling_left_it(tmp_path):
    path = tmp_path / "deep.yaml"
    opened = "cards: [[], " + "[" * (MAX_NESTING - 1)  # the file's mapping and list, then MAX_NESTING - 1 more
    path.write_text(opened + "]" * MAX_NESTING + "\n")
    where = rf"\(line 1, column {len(opened)}\)"
    with pytest.raises(DataError, match=rf"nested more than {MAX_NESTING} levels deep {where}"):
        load_cards([path])
    path.write_text("cards: [[], " + "[" * (MAX_NESTING - 2) + "]" * (MAX_NESTING - 1) + "\n")
    with pytest.raises(DataError, match=r"expected a mapping"):  # as deep as allowed: read, then refused as cards
        load_cards([path])


def test_a_huge_data_file_is_refused_before_parsing(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    with pytest.raises(DataError, match=rf"huge\.yaml: file larger than {MAX_FILE_BYTES:,} bytes"):
        read_yaml(path)


def test_a_data_file_of_exactly_the_size_limit_is_read(tmp_path):
    path = tmp_path / "full.yaml"
    path.write_bytes(b"cards: []\n" + b"#" * (MAX_FILE_BYTES - 11) + b"\n")
    assert path.stat().st_size == MAX_FILE_BYTES and read_yaml(path) == {"cards": []}


def test_a_data_file_is_read_no_further_than_one_byte_past_the_size_limit(tmp_path, monkeypatch):
    """A hostile path (a device, a pipe, a huge file) costs at most the limit's memory."""
    asked: list[object] = []
    real_open = Path.open

    def recording_open(self, *args, **kwargs):
        handle = real_open(self, *args, **kwargs)
        real_read = handle.read
        handle.read = lambda size=-1: (asked.append(size), real_read(size))[1]
        return handle

    path = tmp_path / "huge.yaml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES * 2))
    monkeypatch.setattr(Path, "open", recording_open)
    with pytest.raises(DataError, match="file larger than"):
        read_yaml(path)
    assert asked == [MAX_FILE_BYTES + 1]


def test_a_data_file_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"cards: [\xff]\n")
    with pytest.raises(DataError, match=r"latin\.yaml: not UTF-8 text"):
        read_yaml(path)


@pytest.mark.parametrize("text, where", [
    ("cards:\n  - &pet {id: pet, name: Pet, type: minion, cost: 1, attack: 1, health: 1}\n", "line 2, column 5"),
    ("cards:\n  - {id: pet, name: Pet, type: minion, cost: 1, attack: 1, health: 1}\n  - *pet\n",
     "line 3, column 5"),
])
def test_an_anchor_or_an_alias_alone_is_refused_naming_its_line_and_column(tmp_path, text, where):
    path = tmp_path / "anchored.yaml"
    path.write_text(text)
    with pytest.raises(DataError, match=rf"^{path}: YAML anchors and aliases \(&name, \*name\) are not allowed in "
                                        rf"data files \({where}\)$"):
        read_yaml(path)


def test_the_packaged_files_use_no_anchors_and_load_cleanly():
    from ccg_env.engine.datafiles import config_dir

    for path in sorted(config_dir().rglob("*.yaml")):
        read_yaml(path)


# --- numbers and sizes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RANGES))
def test_every_rule_has_a_documented_range_that_is_enforced(name, tmp_path):
    low, high = RANGES[name]
    assert f"| `{name}` | {low}..{high} |" in _cards_doc()
    path = tmp_path / "rules.yaml"
    path.write_text(f"{name}: {high + 1}\n")
    with pytest.raises(DataError, match=rf"field '{name}': must be between {low} and {high}, got {high + 1}"):
        Rules.load(path)


def _cards_doc() -> str:
    from pathlib import Path

    return (Path(__file__).resolve().parents[2] / "docs" / "cards.md").read_text()


def test_a_rules_file_cannot_ask_for_a_huge_battlefield(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text("max_battlefield: 1000\n")
    with pytest.raises(DataError, match=r"field 'max_battlefield': must be between 1 and 14, got 1000"):
        Rules.load(path)


@pytest.mark.parametrize("field, value", [("cost", 10**300), ("cost", 21), ("attack", 101), ("health", 10**9),
                                          ("attack", -1)])
def test_card_numbers_are_capped(tmp_path, field, value):
    card = {"id": "big", "name": "Big", "type": "minion", "cost": 1, "attack": 1, "health": 1, field: value}
    path = tmp_path / "cards.yaml"
    path.write_text(json.dumps({"cards": [card]}))
    with pytest.raises(DataError, match=rf"card 'big', field '{field}': must be between") as info:
        load_cards([path])
    assert len(str(info.value)) < 200


def test_a_card_has_at_most_ten_abilities(tmp_path):
    ability = {"trigger": "turn_end", "effect": "draw", "amount": 1}
    card = {"id": "many", "name": "Many", "type": "minion", "cost": 1, "attack": 1, "health": 1,
            "abilities": [ability] * 11}
    path = tmp_path / "cards.yaml"
    path.write_text(json.dumps({"cards": [card]}))
    with pytest.raises(DataError, match=r"card 'many', field 'abilities': 11 abilities, at most 10 allowed"):
        load_cards([path])


def test_error_messages_shorten_long_values(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(json.dumps({"cards": [{"id": "x", "name": "X", "type": "spell", "cost": "9" * 100_000}]}))
    with pytest.raises(DataError, match=r"field 'cost': expected an integer, got '9999") as info:
        load_cards([path])
    assert len(str(info.value)) < 300
    assert len(shown(list(range(10**6)))) < 100 and len(shown("x" * 10**6)) < 100


def test_a_shown_value_keeps_200_characters_and_cuts_a_longer_one_to_200_ending_in_dots():
    whole = ["a" * 36] * 5  # repr: 5 x 38 characters and 10 of brackets and commas
    assert len(repr(whole)) == 200 and shown(whole) == repr(whole)
    longer = ["a" * 36] * 4 + ["a" * 37]
    assert shown(longer) == repr(longer)[:197] + "..."


def test_a_number_too_long_to_print_is_shown_by_its_type():
    assert shown(10**5000) == "<int>"  # Python refuses to print ints of over 4,300 digits


def _state(mutate) -> str:
    doc = json.loads(Game.new(seed=1).to_json())
    mutate(doc)
    return json.dumps(doc)


STATE_CASES = {
    "a million cards in a deck": (
        lambda d: d["players"][0]["zones"]["deck"].extend([d["players"][0]["zones"]["deck"][0]] * 1_000_000),
        r"document of 23\d,\d{3},\d{3} characters, at most 4,000,000 allowed"),
    "ten thousand cards in a deck": (
        lambda d: d["players"][0]["zones"]["deck"].extend([d["players"][0]["zones"]["deck"][0]] * 10_000),
        r"players\[0\]\.zones\.deck: 10,02\d cards, at most 30 allowed"),
    "a cost of 10**300": (lambda d: d["players"][0]["zones"]["hand"][0].update(cost=10**300),
                          r"players\[0\]\.zones\.hand\[0\]: field 'cost' is 1000000.*, out of range"),
    "a huge turn": (lambda d: d.update(turn=2**40), r"state: field 'turn' is 1099511627776, out of range"),
    "a battlefield of 1000 in the rules": (lambda d: d["rules"].update(max_battlefield=1000),
                                           r"state\.rules, field 'max_battlefield': must be between 1 and 14"),
    "a hand above the rules' size": (
        lambda d: d["players"][1]["zones"]["hand"].extend(d["players"][1]["zones"]["hand"][:1] * 10),
        r"players\[1\]\.zones\.hand: 1\d cards, at most 10 allowed"),
    "a list as the result": (lambda d: d.update(result=[1, 2]), r"state: unknown result \[1, 2\]"),
}


@pytest.mark.parametrize("name", sorted(STATE_CASES))
def test_oversized_states_are_state_errors_naming_where(name):
    mutate, message = STATE_CASES[name]
    with pytest.raises(StateError, match=message) as info:
        Game.from_json(_state(mutate))
    assert len(str(info.value)) < 300


def test_a_state_document_over_the_size_limit_is_refused_before_parsing():
    with pytest.raises(StateError, match=rf"document of {MAX_STATE_CHARS + 1:,} characters, at most"):
        Game.from_json(" " * (MAX_STATE_CHARS + 1))


def test_numbers_at_the_limit_still_load():
    text = _state(lambda d: d["players"][0]["zones"]["hand"][0].update(attack=MAX_NUMBER))
    assert Game.from_json(text).player(0).hand[0].attack == MAX_NUMBER


@pytest.mark.parametrize("encoding", [None, "utf-8", "utf-16", "utf-32-le"])
def test_a_state_nested_too_deeply_to_parse_names_where_it_first_nests_too_deep(encoding):
    """The in-process twin of the subprocess test above, as text or bytes in any encoding json reads: brackets
    inside strings and closed ones do not count, and the place is a character and line of the text."""
    prefix = '\n{"format": "ccg-env/state", "version": 1, "note": "[[{{",\n "rules": [{"a": []}, '
    text = prefix + "[" * 100_000 + "]" * 100_000 + "]}\n"
    with pytest.raises(StateError) as info:
        Game.from_json(text if encoding is None else text.encode(encoding))
    # the run starts 2 deep (the document, the rules list), so its 99th bracket is the 101st level
    assert str(info.value) == (f"not a JSON document: nested more than 100 levels deep at character "
                               f"{len(prefix) + 98} (line 3)")


def test_a_lone_surrogate_before_the_nesting_counts_as_one_character_as_json_reads_it():
    prefix = '{"format": "ccg-env/state", "version": 1, "note": "'
    text = prefix.encode() + b"\xed\xa0\x80" + b'", "rules": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(StateError) as info:
        Game.from_json(text)
    where = len(prefix) + 1 + len('", "rules": ') + 99  # the surrogate is one character of the decoded text
    assert str(info.value) == f"not a JSON document: nested more than 100 levels deep at character {where} (line 1)"


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def test_a_state_the_parser_cannot_nest_on_a_nearly_full_stack_is_a_state_error():
    """Parsed with little stack left, 60 levels are too many for the parser yet few enough to name no place."""
    text = '{"format": "ccg-env/state", "version": 1, "rules": ' + "[" * 60 + "]" * 60 + "}"

    def parse_at(levels: int) -> str:
        if levels > 0:
            return parse_at(levels - 1)
        with pytest.raises(StateError) as info:
            Game.from_json(text)
        return str(info.value)

    assert parse_at(sys.getrecursionlimit() - _stack_depth() - 40) == "not a JSON document: nested too deeply to parse"
