"""Dice: notation, a seeded generator that lives in the game state, and roll records.

The game's seed is its secret: whoever knows it knows every roll to come, and through the
computer players every hidden move. So the dice are keyed BLAKE2b over a counter: a key is
hashed from the seed, and block b of the stream is BLAKE2b-512(b, key), read as eight
little-endian 64-bit numbers. The faces say nothing about the key, so a side cannot work
the seed out from the rolls it saw; a drawn seed (`new_seed`) has 128 random bits, too many
to try them all. The state is still two integers (seed, counter), so it serialises, hashes
and replays trivially. A seed given by the user is reproducible and, being known, not
secret. `derive_seed` gives the computer players seeds of their own from the game's by the
same keyed hash, so a player's seed does not lead back to the game's either.

Every roll is returned as a `Roll` carrying its purpose, raw faces, named modifiers and the
number it needed; rules turn it into an event.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from math import ceil
from typing import Any

from fibua.core.errors import DiceExhausted
from fibua.core.values import is_number


@dataclass(frozen=True, slots=True)
class Dice:
    """A kind of roll: `count` dice of `sides`, read from `low`, then scaled.

    `multiplier` covers 4D6x10; `halve` covers D3 (= ceil(D6/2)) and D10/2 (= ceil(D10/2)).
    """

    notation: str
    count: int
    sides: int
    low: int = 1
    multiplier: int = 1
    halve: bool = False

    @property
    def minimum(self) -> int:
        return self.value_of([self.low] * self.count)

    @property
    def maximum(self) -> int:
        return self.value_of([self.low + self.sides - 1] * self.count)

    def value_of(self, faces: list[int]) -> int:
        total = sum(faces)
        if self.halve:
            total = ceil(total / 2)
        return total * self.multiplier


_NOTATION = re.compile(
    r"^(?P<count>[1-9]\d*)?d(?P<sides>\d+)(?P<zero>\[0-9\])?(?:x(?P<mult>\d+)|(?P<half>/2))?$"
)


@lru_cache(maxsize=64)
def parse_dice(notation: str) -> Dice:
    """Parse notation: d6, 2d6, 3d6, 4d6x10, d3, d10, d10[0-9] (read 0-9), d10/2, d100.

    d3 is a d6 halved rounding up; d100 reads 1..100 (the face "00" is 100).
    """
    text = notation.strip().lower()
    if text == "d3":
        return Dice(notation, 1, 6, halve=True)
    m = _NOTATION.match(text)
    if not m:
        raise ValueError(f"unknown dice notation {notation!r}")
    sides = int(m["sides"])
    if sides < 2:
        raise ValueError(f"dice need at least two sides: {notation!r}")
    low = 0 if m["zero"] else 1
    if m["zero"] and sides != 10:
        raise ValueError(f"only the d10 can be read 0-9: {notation!r}")
    return Dice(
        notation=notation,
        count=int(m["count"] or 1),
        sides=sides,
        low=low,
        multiplier=int(m["mult"] or 1),
        halve=bool(m["half"]),
    )


#: random bits in a drawn seed
SEED_BITS = 128
_UNPACK_BLOCK = struct.Struct("<8Q").unpack
# one use each: a dice block and a derived seed can never be the same hash
_KEY_PERSON = b"fibua/seed-key"
_DICE_PERSON = b"fibua/dice"
_DERIVE_PERSON = b"fibua/derive"


def new_seed() -> int:
    """A fresh secret seed for a game nobody gave one: 128 bits from the OS's generator."""
    return secrets.randbits(SEED_BITS)


def _int_bytes(value: int) -> bytes:
    """Two's-complement big-endian bytes of any int, as short as they can be: one int, one
    string of bytes, so seeds of any size are keys of their own."""
    return value.to_bytes(value.bit_length() // 8 + 1, "big", signed=True)


def seed_key(seed: int) -> bytes:
    """The 64-byte BLAKE2b key the seed stands for (hashed, as a seed may be any size)."""
    return hashlib.blake2b(_int_bytes(seed), digest_size=64, person=_KEY_PERSON).digest()


def _label_bytes(label: str | int) -> bytes:
    # tagged and length-prefixed, so no two label lists run together into the same bytes
    if isinstance(label, str):
        raw, tag = label.encode(), b"s"
    else:
        raw, tag = _int_bytes(label), b"i"
    return tag + len(raw).to_bytes(8, "big") + raw


def derive_seed(seed: int, *labels: str | int) -> int:
    """A seed of its own for one use of the game's seed (e.g. "computer", side): a 256-bit
    keyed hash of the labels, so it neither repeats another use's nor leads back to `seed`."""
    message = b"".join(_label_bytes(label) for label in labels)
    digest = hashlib.blake2b(message, digest_size=32, key=seed_key(seed), person=_DERIVE_PERSON)
    return int.from_bytes(digest.digest(), "big")


@lru_cache(maxsize=64)
def _dice_hash(seed: int) -> hashlib.blake2b:
    """BLAKE2b already keyed by the seed: each block copies it rather than keying anew
    (half the cost). Kept here, not in `Rng`, so a generator copies and pickles as plain
    numbers."""
    return hashlib.blake2b(digest_size=64, key=seed_key(seed), person=_DICE_PERSON)


def dice_block(seed: int, block: int) -> tuple[int, ...]:
    """Block `block` of the seed's stream: eight u64 values."""
    h = _dice_hash(seed).copy()
    h.update(block.to_bytes(16, "little"))
    return _UNPACK_BLOCK(h.digest())


@lru_cache(maxsize=256)
def _accept_below(n: int) -> int:
    """Largest multiple of n that fits in 64 bits: values from it up are thrown away."""
    if n < 1:
        raise ValueError(f"no integer below {n} to draw")
    return (1 << 64) - ((1 << 64) % n)


@dataclass(slots=True)
class Rng:
    """Seeded generator kept inside the game state. Never sent to a player.

    `counter` is how many u64 values have been drawn; value i is word i % 8 of block i // 8.
    The current block is a cache, made again from (seed, counter) when needed.
    """

    seed: int
    counter: int = 0
    _block: int = field(default=-1, init=False, repr=False, compare=False)
    _words: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def next_u64(self) -> int:
        index = self.counter
        self.counter = index + 1
        block = index >> 3
        if block != self._block:
            self._words = dice_block(self.seed, block)
            self._block = block
        return self._words[index & 7]

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias: values at or above the largest
        multiple of n that fits are rejected and drawn again."""
        limit = _accept_below(n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def face(self, dice: Dice) -> int:
        return dice.low + self.below(dice.sides)

    def random(self) -> float:
        return (self.next_u64() >> 11) / float(1 << 53)

    def snapshot(self) -> dict[str, int]:
        return {"seed": self.seed, "counter": self.counter}


@dataclass(slots=True)
class ForcedDice(Rng):
    """Test double: hands out the given faces in order (as read, e.g. 0 on a d10[0-9],
    100 for a d100 "00"). Running out raises, so a test states every roll it expects."""

    faces: list[int] = field(default_factory=list)

    def face(self, dice: Dice) -> int:
        if not self.faces:
            raise DiceExhausted(f"no forced face left for a {dice.notation}")
        value = self.faces.pop(0)
        high = dice.low + dice.sides - 1
        if not dice.low <= value <= high:
            raise ValueError(f"forced face {value} is not on a {dice.notation}")
        self.counter += 1
        return value


@dataclass(frozen=True, slots=True)
class Modifier:
    name: str
    value: int


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll as recorded: raw faces, value, modifiers, what it needed and whether it made it.

    `need` is the number the modified total had to reach: at least it when `at_most` is
    False ("N+"), at most it when True (percentile "N or less").
    """

    purpose: str
    dice: str
    faces: tuple[int, ...]
    value: int
    modifiers: tuple[Modifier, ...] = ()
    need: int | None = None
    at_most: bool = False
    #: how `need` was reached, for percentile chances: ("base", 100), ("range", -20), ...
    basis: tuple[Modifier, ...] = ()

    @property
    def total(self) -> int:
        if not self.modifiers:
            return self.value
        return self.value + sum(m.value for m in self.modifiers)

    @property
    def success(self) -> bool | None:
        return self._made(self.total)

    def _made(self, total: int) -> bool | None:
        if self.need is None:
            return None
        return total <= self.need if self.at_most else total >= self.need

    def to_dict(self) -> dict[str, object]:
        total = self.total  # worked out once: every shot is recorded
        return {
            "purpose": self.purpose,
            "dice": self.dice,
            "faces": list(self.faces),
            "value": self.value,
            "modifiers": [[m.name, m.value] for m in self.modifiers],
            "total": total,
            "need": self.need,
            "at_most": self.at_most,
            "success": self._made(total),
            "basis": [[m.name, m.value] for m in self.basis],
        }

    def describe(self) -> str:
        return describe_roll(self.to_dict())


def modifier_pairs(raw: Any) -> list[tuple[str, int]]:
    """Named modifiers as recorded ([[name, value], ...]); anything else is skipped."""
    out: list[tuple[str, int]] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, list | tuple) and len(item) == 2 and is_number(item[1]):
            out.append((str(item[0]), int(item[1])))
    return out


def _read_otherwise(faces: Any, value: Any) -> bool:
    """Whether a roll's value is not simply its faces added up."""
    if not isinstance(faces, list) or not all(is_number(f) for f in faces):
        return False
    return bool(faces) and sum(faces) != value


def describe_roll(raw: Mapping[str, Any]) -> str:
    """`to hit: 2d6 rolled 3+5 +1 cover = 9, needed 7+ (base 6, range +1) - success`;
    `initiative: d3 rolled 4, read as 2, +1 leader = 3`."""
    faces = raw.get("faces", [])
    text = (f"{raw.get('purpose', 'roll')}: {raw.get('dice', '?')} rolled "
            f"{'+'.join(str(f) for f in faces) or '?'}")
    value = raw.get("value")
    if is_number(value) and _read_otherwise(faces, value):
        # a d3 read from a d6, a d100's "00", skill dice times ten: the faces do not add
        # up to what the roll counts as, so it is said before any modifier
        text += f", read as {value}" + ("," if raw.get("modifiers") else "")
    mods = modifier_pairs(raw.get("modifiers"))
    if mods:
        text += "".join(f" {value:+d} {name}" for name, value in mods)
        text += f" = {raw.get('total')}"
    need = raw.get("need")
    if need is not None:
        text += f", needed {need}{' or less' if raw.get('at_most') else '+'}"
        basis = modifier_pairs(raw.get("basis"))
        if basis:
            text += " (" + ", ".join(f"{name} {value:+d}" for name, value in basis) + ")"
    success = raw.get("success")
    if success is not None:
        text += " - success" if success else " - failure"
    return text


def roll(
    rng: Rng,
    notation: str,
    purpose: str,
    modifiers: tuple[Modifier, ...] = (),
    need: int | None = None,
    at_most: bool = False,
    basis: tuple[Modifier, ...] = (),
) -> Roll:
    """Roll `notation` for `purpose`; zero-valued modifiers are dropped from the record."""
    dice = parse_dice(notation)
    # most rolls are one die with no modifier: no generator for those
    faces = (rng.face(dice),) if dice.count == 1 else tuple(
        rng.face(dice) for _ in range(dice.count))
    kept = tuple(m for m in modifiers if m.value) if modifiers else ()
    value = dice.value_of(list(faces))
    return Roll(purpose, notation, faces, value, kept, need, at_most, basis)
