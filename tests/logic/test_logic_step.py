"""Step, the slotted record of one logical step: immutable, compared and hashed on its fields
(the lazy text formatted), printed and pickled as the frozen dataclass it replaced."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from sudokit.logic.step import Link, LinkKind, Step


def _step(text: object = "r1c1 has one candidate left: 5") -> Step:
    link = Link(((0,), 5), ((1, 2), 5), LinkKind.WEAK)
    return Step("Naked Single", 2.3, text, placements=((0, 5),), eliminations=((1, 5),),
                cells=(0,), digits=(5,), links=(link,))


def test_fields_are_frozen() -> None:
    step = _step()
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.rating = 1.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del step.technique
    with pytest.raises(AttributeError):
        step.colour = "red"  # type: ignore[attr-defined]
    assert not hasattr(step, "__dict__")


def test_equality_hash_and_repr_on_the_fields() -> None:
    lazy, eager = _step(lambda: "r1c1 has one candidate left: 5"), _step()
    assert lazy == eager and hash(lazy) == hash(eager)
    assert _step("other") != eager and eager != ("Naked Single",)
    assert repr(eager) == (
        "Step(technique='Naked Single', rating=2.3, text='r1c1 has one candidate left: 5', "
        "placements=((0, 5),), eliminations=((1, 5),), cells=(0,), digits=(5,), "
        "links=(Link(start=((0,), 5), end=((1, 2), 5), kind=<LinkKind.WEAK: 'weak'>),))")
    assert hash(eager) == hash(("Naked Single", 2.3, eager.text, ((0, 5),), ((1, 5),), (0,),
                                (5,), eager.links))
    assert {eager: 1}[lazy] == 1


def test_keywords_defaults_and_pickle() -> None:
    step = Step(technique="Full House", rating=1, text="t")
    assert (step.placements, step.eliminations, step.cells, step.digits, step.links) == (
        (), (), (), (), ())
    assert step.rating == 1.0 and isinstance(step.rating, float)
    lazy = _step(lambda: "r1c1 has one candidate left: 5")
    back = pickle.loads(pickle.dumps(lazy))
    assert back == lazy and back.text == lazy.text and back.links == lazy.links
    with pytest.raises(dataclasses.FrozenInstanceError):
        back.rating = 0.0  # type: ignore[misc]
