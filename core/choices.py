"""A proof's fields as choices, coded as whole numbers (rANS on Python's integers).

Every field is a choice among weighted options; an option costs about
``log2(total / weight)`` bits, and the coding is exact, as the integers are unbounded.
:class:`Writer` takes the choices in order and codes them last first, so a reader takes
them back out first first, each asked with the same weights. Numbers, texts and mode ids
are choices too; :class:`Texts` writes an action text seen before by its index.

Format 2 (:meth:`Writer.bits`, :class:`ChunkReader`) codes every :data:`CHUNK` choices as a
number of their own, each after its length in bits: reading a choice divides a number of a
few thousand bits at most, so a proof costs time linear in its length. Format 1 (one
number for the whole game, :meth:`Writer.number`, :class:`Reader`) divides the whole proof
for every choice, the square of its length; it is still read.
"""

from __future__ import annotations

from twofold.core._capabilities import Weights

#: the longest action text or mode id written as text
MAX_TEXT = 4096
#: the most action texts a proof remembers to write again by index
MAX_SEEN = 255
#: the choices coded as one number in format 2 (some 2,000 bits for 2048's moves)
CHUNK = 1024
#: a chunk's length in bits is written 4 bits a group, each followed by a bit "more follow"
_GROUP = 4
#: the characters of a mode id written in 5 or 6 bits; anything else costs a byte more
_ID_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz-_."


class Writer:
    """Collects choices in order; :meth:`number` codes them all as one integer."""

    def __init__(self) -> None:
        self.choices: list[tuple[int, int, int]] = []

    def pick(self, index: int, weights: Weights) -> None:
        width = weights[index] if 0 <= index < len(weights) else 0
        if width <= 0:
            raise ValueError(f"option {index} of {list(weights)} cannot be chosen")
        self.choices.append((sum(weights[:index]), width, sum(weights)))

    def uniform(self, index: int, count: int) -> None:
        if not 0 <= index < count:
            raise ValueError(f"{index} is not below {count}")
        self.choices.append((index, 1, count))

    def number(self) -> int:
        """Every choice as one number (format 1; time the square of the choices)."""
        return _coded(self.choices)

    def bits(self) -> str:
        """The choices as format 2's bits: :data:`CHUNK` at a time, each chunk's length in
        bits, then its number (linear in the choices)."""
        choices = self.choices
        parts = []
        for first in range(0, len(choices), CHUNK):
            number = _coded(choices[first : first + CHUNK])
            length = number.bit_length()
            while True:
                more = length >> _GROUP
                parts.append(format((length & 15) << 1 | (more > 0), "05b"))
                length = more
                if not length:
                    break
            if number:
                parts.append(format(number, "b"))
        return "".join(parts)


def _coded(choices: list[tuple[int, int, int]]) -> int:
    # rANS: the last choice is coded first, so the reader takes them in order
    x = 0
    for start, width, total in reversed(choices):
        high, low = divmod(x, width)
        x = high * total + start + low
    return x


class Reader:
    """Takes the choices a :class:`Writer` coded as one number back out of it, in order."""

    def __init__(self, number: int) -> None:
        self.x = number

    def pick(self, weights: Weights) -> int:
        total = sum(weights)
        if total <= 0 or min(weights) < 0:
            raise ValueError("a choice with no options")
        high, slot = divmod(self.x, total)
        start = 0
        for index, width in enumerate(weights):
            if slot < start + width:
                self.x = width * high + slot - start
                return index
            start += width
        raise AssertionError("unreachable: slot < total")

    def uniform(self, count: int) -> int:
        if count <= 0:
            raise ValueError("a choice with no options")
        self.x, index = divmod(self.x, count)
        return index

    def finished(self) -> bool:
        """Whether every choice coded was taken (nothing goes on past the last)."""
        return not self.x


class ChunkReader(Reader):
    """Takes format 2's choices back out of its bits, a chunk's number at a time."""

    def __init__(self, bits: str) -> None:
        super().__init__(0)
        self.stream, self.at, self.left = bits, 0, 0

    def _next_chunk(self) -> None:
        if self.x:
            raise ValueError("a chunk goes on past its choices")
        stream, length, shift = self.stream, 0, 0
        while True:
            group = stream[self.at : self.at + _GROUP + 1]
            if len(group) <= _GROUP or shift > 24:
                raise ValueError("a chunk's length is cut off")
            self.at += _GROUP + 1
            value = int(group, 2)
            length |= (value >> 1) << shift
            shift += _GROUP
            if not value & 1:
                break
        bits = stream[self.at : self.at + length]
        if len(bits) < length or bits[:1] == "0":
            raise ValueError("a chunk is cut off")
        self.at += length
        self.x = int(bits, 2) if bits else 0
        self.left = CHUNK

    def pick(self, weights: Weights) -> int:
        if not self.left:
            self._next_chunk()
        self.left -= 1
        return super().pick(weights)

    def uniform(self, count: int) -> int:
        if not self.left:
            self._next_chunk()
        self.left -= 1
        return super().uniform(count)

    def finished(self) -> bool:
        return not self.x and self.at == len(self.stream)


def write_number(writer: Writer, value: int) -> None:
    """A whole number from 0, four bits at a time (each group says whether more follow)."""
    while True:
        writer.uniform(value & 15, 16)
        value >>= 4
        writer.uniform(int(value > 0), 2)
        if not value:
            return


def read_number(reader: Reader, most: int) -> int:
    value, shift = 0, 0
    while True:
        value |= reader.uniform(16) << shift
        shift += 4
        if not reader.uniform(2):
            return value
        if value > most or shift > most.bit_length() + 4:
            raise ValueError("a number out of range")


def write_text(writer: Writer, text: str) -> None:
    data = text.encode("utf-8")
    if len(data) > MAX_TEXT:
        raise ValueError("a text too long for a proof")
    write_number(writer, len(data))
    for byte in data:
        writer.uniform(byte, 256)


def read_text(reader: Reader) -> str:
    length = read_number(reader, MAX_TEXT)
    if length > MAX_TEXT:
        raise ValueError("a text too long for a proof")
    return bytes(reader.uniform(256) for _byte in range(length)).decode("utf-8")


def write_id(writer: Writer, mode_id: str) -> None:
    write_number(writer, len(mode_id))
    for ch in mode_id:
        index = _ID_CHARS.find(ch)
        writer.uniform(index if index >= 0 else len(_ID_CHARS), len(_ID_CHARS) + 1)
        if index < 0:
            write_text(writer, ch)


def read_id(reader: Reader) -> str:
    length = read_number(reader, 200)
    chars = []
    for _ch in range(length):
        index = reader.uniform(len(_ID_CHARS) + 1)
        chars.append(_ID_CHARS[index] if index < len(_ID_CHARS) else read_text(reader))
    return "".join(chars)


class Texts:
    """Action texts as written: one seen before by its index (weighted by use), else in full."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.uses: list[int] = []
        self.index: dict[str, int] = {}

    def weights(self) -> list[int]:
        return [*self.uses, 1]

    def write(self, writer: Writer, text: str) -> None:
        found = self.index.get(text)
        writer.pick(len(self.seen) if found is None else found, self.weights())
        if found is None:
            write_text(writer, text)
        self._used(text, found)

    def read(self, reader: Reader) -> str:
        found: int | None = reader.pick(self.weights())
        if found == len(self.seen):
            found = None
            text = read_text(reader)
        else:
            text = self.seen[found]
        self._used(text, found)
        return text

    def _used(self, text: str, found: int | None) -> None:
        if found is not None:
            self.uses[found] += 1
        elif len(self.seen) < MAX_SEEN and text not in self.index:
            self.index[text] = len(self.seen)
            self.seen.append(text)
            self.uses.append(1)
