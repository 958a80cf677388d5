"""``ccg-env deck validate FILE`` and ``ccg-env deck build``: OK with a summary, errors naming file, deck and card
(exit 1), and built decks that validate for every class and strategy."""

import pytest

from ccg_env import cli
from ccg_env.engine import CardClass, default_cards

DECK = """name: Test
hero: {hero}
cards:
{cards}
"""


def write(tmp_path, cards, hero="neutral", name="deck.yaml"):
    path = tmp_path / name
    path.write_text(DECK.format(hero=hero, cards="\n".join(f"  {c}: {n}" for c, n in cards.items())),
                    encoding="utf-8")
    return path


#: fifteen neutral collectible cards (whatever class cards the set holds): two of each make a legal neutral deck
FIFTEEN = sorted(card.id for card in default_cards().values()
                 if card.collectible and card.card_class is CardClass.NEUTRAL)[:15]


def test_validate_prints_ok_and_a_summary(tmp_path, capsys):
    path = write(tmp_path, {card: 2 for card in FIFTEEN})
    assert cli.main(["deck", "validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"OK {path}: deck 'Test', hero neutral, 30 cards (15 distinct)") and "curve 0:" in out
    assert cli.main(["deck", "validate", "configs/decks/aggro.yaml"]) == 0  # a packaged deck


@pytest.mark.parametrize("change, message", [
    ({FIFTEEN[0]: 3}, f"deck 'Test', field 'cards.{FIFTEEN[0]}': 3 copies, the rules allow at most 2"),
    ({FIFTEEN[0]: 1}, "has 29 cards, the rules want exactly 30"),
    ({"no_such_card": 1}, "field 'cards.no_such_card': unknown card id 'no_such_card'"),
])
def test_validate_names_file_deck_and_card_and_exits_1(change, message, tmp_path, capsys):
    path = write(tmp_path, {**{card: 2 for card in FIFTEEN}, **change})
    assert cli.main(["deck", "validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ccg-env deck validate: error:") and str(path) in err and message in err


def test_validate_enforces_the_class(tmp_path, capsys, monkeypatch):
    class_cards = [c for c in default_cards().values() if c.collectible and c.card_class is not CardClass.NEUTRAL]
    if not class_cards:  # class cards come with another piece of issue 21: a bad hero name is refused meanwhile
        path = write(tmp_path, {card: 2 for card in FIFTEEN}, hero="druid")
        assert cli.main(["deck", "validate", str(path)]) == 1
        assert "unknown hero class 'druid'" in capsys.readouterr().err
        return
    card = class_cards[0]
    other = next(c for c in CardClass if c not in (CardClass.NEUTRAL, card.card_class))
    path = write(tmp_path, {**{c: 2 for c in FIFTEEN[1:]}, card.id: 2}, hero=other.value)
    assert cli.main(["deck", "validate", str(path)]) == 1
    assert f"a {other.value} deck may hold only" in capsys.readouterr().err


def test_validate_a_missing_file_and_hostile_yaml(tmp_path, capsys):
    assert cli.main(["deck", "validate", str(tmp_path / "none.yaml")]) == 1
    assert "no such deck file" in capsys.readouterr().err
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("a: &a [1, 2]\nb: *a\n", encoding="utf-8")
    assert cli.main(["deck", "validate", str(bomb)]) == 1
    assert str(bomb) in capsys.readouterr().err


@pytest.mark.parametrize("hero", [c.value for c in CardClass])
@pytest.mark.parametrize("strategy", ["curve", "aggro", "control"])
def test_built_decks_validate(hero, strategy, tmp_path, capsys):
    out = tmp_path / f"{hero}_{strategy}.yaml"
    assert cli.main(["deck", "build", "--hero", hero, "--strategy", strategy, "--seed", "3", "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().err
    assert cli.main(["deck", "validate", str(out)]) == 0
    assert f"hero {hero}, 30 cards" in capsys.readouterr().out
    assert f"hero: {hero}" in out.read_text(encoding="utf-8")


def test_build_prints_the_deck_without_out_and_refuses_bad_options(capsys):
    assert cli.main(["deck", "build", "--hero", "mage"]) == 0
    assert capsys.readouterr().out.startswith("name: mage_curve\n")
    for argv in (["deck", "build", "--hero", "druid"], ["deck", "build", "--hero", "mage", "--strategy", "tempo"],
                 ["deck", "build", "--hero", "mage", "--seed", "-1"], ["deck", "build"], ["deck"]):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(argv)
        assert exit_info.value.code == 2
