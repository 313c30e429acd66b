"""A table's stored messages: a message an append, its JSON lines, and the logs written before a
command's events shared a message (a message an event, a command of several an atomic batch),
which every reader still reads.

The same random matches are stored both ways, from the engine alone (no NATS: the messages are
what ``TableWriter`` appends and what a read returns), and each reading is compared: the replayed
log, the export, the stream's tip, the archive's check of an ended log. A message whose headers
do not say what it holds is refused (``CorruptLog``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju import api
from paiju.protocol import Event
from paiju.simulate import random_chooser, table_command
from paiju.table import Config
from paiju_services import subjects
from paiju_services.archive import ended
from paiju_services.stored import Stored, line_types, next_index
from paiju_services.tablelog import CorruptLog, TableLog, event_line, from_messages, header_line
from paiju_services.tables.writer import first_message, message

TABLE = "00000000000000aa"


def commands_of(game: str, variant: str, seed: int) -> tuple[Config[Any], list[list[Event]]]:
    """A random match: its config, and the events of each command in order (the first the
    commitment to the first deal)."""
    config = api.get_game(game).config(variant, None)
    state = api.initial_state(config)
    choose = random_chooser(random.Random(seed))
    out = []
    while state.phase != "over":
        command = table_command(state, f"secret-{seed}")
        if command is None:
            seat = api.to_move(state)
            assert seat is not None
            command = choose(state, seat, api.legal_moves(state, seat))
        events = api.decide(state, command)
        for event in events:
            state = api.evolve(state, event)
        out.append(events)
    return config, out


def as_appended(config: Config[Any], commands: list[list[Event]]) -> list[Stored]:
    """The messages the table writer appends today: the header and the first commitment in one,
    then a message a command."""
    first, *rest = commands
    head = Stored(1, *first_message(config, TABLE, "table.commit_deal.1", first))
    return [head, *appended_after(rest, 0, len(first), 1)]


def appended_after(commands: list[list[Event]], n: int, index: int, seq: int) -> list[Stored]:
    """The messages of ``commands`` (named ``c<n>`` on) appended today after log index ``index``
    and stream sequence ``seq``."""
    msgs = []
    for events in commands:
        payload, headers = message(f"c{n}", events, index)
        seq, n, index = seq + 1, n + 1, index + len(events)
        msgs.append(Stored(seq, payload, headers))
    return msgs


def as_written_before(config: Config[Any], commands: list[list[Event]]) -> list[Stored]:
    """The same log as it was stored before: a message an event, with ``Paiju-Batch``."""
    header = {subjects.H_COMMAND: "create", subjects.H_INDEX: "-1", subjects.H_TYPE: "paiju_log"}
    msgs = [Stored(1, header_line(config, TABLE), header)]
    for n, events in enumerate(commands):
        command = "table.commit_deal.1" if n == 0 else f"c{n - 1}"
        for i, event in enumerate(events):
            headers = {
                subjects.H_COMMAND: command,
                subjects.H_INDEX: str(len(msgs) - 1),
                subjects.H_TYPE: event.TYPE,
                subjects.H_BATCH: f"{i + 1}/{len(events)}",
            }
            msgs.append(Stored(len(msgs) + 1, event_line(event), headers))
    return msgs


def export(table: TableLog) -> bytes:
    """The log as the gateway exports it (``?format=jsonl``)."""
    return b"".join(line + b"\n" for line in table.lines)


@pytest.mark.parametrize(
    ("game", "variant"), [("guanpai", "boke"), ("banzipao", "guizhou"), ("dabang", "huludao")]
)
def test_a_log_reads_the_same_a_message_an_append_or_a_message_an_event(
    game: str, variant: str
) -> None:
    config, commands = commands_of(game, variant, seed=7)
    now, before = as_appended(config, commands), as_written_before(config, commands)
    assert len(now) == len(commands)  # the header shares the first command's message
    assert len(before) == 1 + sum(len(events) for events in commands)
    assert any(len(events) > 1 for events in commands)  # a hand's end: several events a command

    a, b = from_messages(TABLE, now), from_messages(TABLE, before)
    assert a is not None and b is not None
    assert a.events == b.events == [e for events in commands for e in events]
    assert a.state == b.state and a.state.phase == "over"
    assert a.commands == b.commands and a.settled and b.settled
    assert export(a) == export(b)  # the same JSON lines, byte for byte
    assert len(export(a).splitlines()) == 1 + a.version

    # what the stream's last message says: the tip, a feed's version, the archive's check
    assert next_index(now[-1].headers) == next_index(before[-1].headers) == a.version
    assert ended(now) and ended(before)
    assert not ended(now[:-1])
    assert line_types(now[0].headers) == ["paiju_log", "deal_committed"]


def test_a_log_begun_a_message_an_event_goes_on_a_message_an_append() -> None:
    """A table live through the upgrade: its first commands stored as before, the rest today."""
    config, commands = commands_of("banzipao", "guizhou", seed=11)
    cut = next(i for i, events in enumerate(commands) if len(events) > 1) + 1
    older = as_written_before(config, commands[:cut])
    index = sum(len(events) for events in commands[:cut])
    mixed = older + appended_after(commands[cut:], cut - 1, index, older[-1].seq)
    a, b = from_messages(TABLE, mixed), from_messages(TABLE, as_appended(config, commands))
    assert a is not None and b is not None
    assert (a.events, a.state, a.commands) == (b.events, b.state, b.commands)
    assert export(a) == export(b)
    assert ended(mixed) and next_index(mixed[-1].headers) == a.version


def begun(
    game: str, variant: str, seed: int
) -> tuple[list[list[Event]], list[Stored], TableLog, TableLog]:
    """A random match's commands and messages, its log read whole, and its log of the first
    message alone."""
    config, commands = commands_of(game, variant, seed)
    msgs = as_appended(config, commands)
    whole, first = from_messages(TABLE, msgs), from_messages(TABLE, msgs[:1])
    assert whole is not None and first is not None
    return commands, msgs, whole, first


def test_a_log_caught_up_message_by_message_is_the_log_read_whole() -> None:
    _, msgs, whole, stepwise = begun("guanpai", "mainstream", seed=3)
    for msg in msgs[1:]:
        before = stepwise.version
        assert len(stepwise.apply(msg)) == len(line_types(msg.headers))
        assert stepwise.version == next_index(msg.headers) == before + len(line_types(msg.headers))
    assert stepwise.events == whole.events and stepwise.state == whole.state
    assert stepwise.stored() == msgs  # archived from memory as the stream holds it


def test_a_copy_records_its_own_append_as_a_read_would() -> None:
    commands, msgs, read, mine = begun("guanpai", "boke", seed=5)
    for n, (events, msg) in enumerate(zip(commands[1:], msgs[1:], strict=True)):
        states = mine.applied(events, msg, f"c{n}")
        assert states[-1] == mine.state and len(states) == len(events)
    assert (mine.events, mine.state, mine.commands) == (read.events, read.state, read.commands)
    assert mine.stored() == read.stored()
    with pytest.raises(CorruptLog, match="not after"):  # an append this log did not follow
        mine.applied(commands[1], msgs[1], "again")


def refused(msgs: list[Stored], match: str) -> None:
    with pytest.raises(CorruptLog, match=match):
        from_messages(TABLE, msgs)


def test_a_message_that_is_not_what_its_headers_say_is_refused() -> None:
    config, commands = commands_of("guanpai", "boke", seed=1)
    msgs = as_appended(config, commands)
    hand_end = next(i for i, m in enumerate(msgs) if len(line_types(m.headers)) > 1 and i > 0)
    end = msgs[hand_end]

    def changed(data: bytes | None = None, **headers: str) -> list[Stored]:
        new = Stored(end.seq, end.data if data is None else data, {**end.headers, **headers})
        return [*msgs[:hand_end], new, *msgs[hand_end + 1 :]]

    first_line, _, rest = end.data.partition(b"\n")
    refused(changed(first_line), "holds")  # an event lost from the message
    refused(changed(end.data + b"\n" + rest), "holds")  # an event stored twice in it
    types = line_types(end.headers)
    refused(changed(**{subjects.H_TYPE: " ".join(reversed(types))}), "holds")
    refused(changed(**{subjects.H_INDEX: str(int(end.headers[subjects.H_INDEX]) + 1)}), "index")
    refused(changed(end.data + b"\n"), "bad event")  # an empty line
    refused([*msgs[:hand_end], *msgs[hand_end + 1 :]], "index")  # a message lost
    refused([msgs[0], msgs[1], msgs[1], *msgs[2:]], "index")  # a message stored twice
    head = Stored(1, msgs[0].data.replace(b"paiju_log", b"paiju_loq", 1), msgs[0].headers)
    refused([head, *msgs[1:]], "bad header")
