"""A practice table: one person against bots, with no server. The browser's engine worker runs it as
the authority of the table, and the table page reads its frames as it reads a server table's.

**What it is.** A ``PracticeTable`` holds one match: its config, the log (the events so far), the
person's seat, the table's secret (the browser's random seed: every hand's deal seed is derived
from it, ``paiju.simulate.hand_seed``) and the turn clock. It plays the table's own steps as the
table service does (``paiju.simulate.table_command``: commit, deal, reveal; the next hand's deal
held for the person's 继续 or its deadline), the bots' moves (at the table's level, ``paiju.levels``,
each chosen on a state rebuilt from the bot seat's view alone, ``paiju.client.state_from_view``, as
the bots service chooses) and the person's clock (a passed deadline plays ``AutoMove`` for the
seat, as the table service's clock does).

**Frames.** What goes in and out are the WebSocket frames of a seated player, as JSON-able dicts:
in, ``{"type": "command", "id", "command"}`` (and ``hello``, ``ping``, ``sync``); out, ``welcome``,
``state`` (one per event, the person's view alone: ``api.view(state, seat)``), ``ack``, ``error``,
``pong`` and ``over``, each field as the gateway writes it (``paiju_services.gateway.schemas``,
``views.frame``; ``tests/engine/test_practice.py`` decodes them with the gateway's own types).
A refused command answers an ``error`` with its id and changes nothing; a command id already
applied is answered again (``duplicate``) and applied once.

**Time** is an argument, never read: every call takes ``now_ms`` (epoch milliseconds), so the
same seed and the same times give the same frames and the same log. ``advance(now_ms)`` does what
is due by then (a bot's move ``bot_delay_ms`` after the wait began, the person's passed
deadline, the 继续 gate's) and answers ``{"frames": [...], "wake": ms or None}``: call it again at
``wake``. A wait begins with the last event that is not quiet (a 继续, a seed, a 托管 switch and
table talk buy nobody time), as at a server table.

**The log** is the ordinary log (``paiju.log.file``): ``log_text()`` at any time, which
``paiju audit`` checks and the replay page opens. ``PracticeTable.resume`` rebuilds the table from
it and the same secret (which the log never holds): the same state, and the same moves for the
same times. What the log does not hold starts afresh: the wait begins at the resume (unless
``since_ms`` says when it began) and command ids from before are forgotten.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from paiju import api, levels
from paiju.client import state_from_view
from paiju.errors import PaijuError, RuleError
from paiju.fairness import commitment_of
from paiju.levels import DEFAULT_LEVEL
from paiju.log.file import decode_event, dump_lines, read_header
from paiju.practice_clock import AUTO_DELAY_MS, BOT_DELAY_MS, Clock, Due, holds
from paiju.practice_frames import (
    Frame,
    FrameError,
    ack,
    client_frame,
    error_frame,
    fingerprint,
    hands_sheet,
    over_frame,
    seat_command,
    short,
    state_frame,
    table_entry,
    welcome,
)
from paiju.protocol import (
    ENDING_EVENTS,
    AutoMove,
    Command,
    DealCommitted,
    EndAtLimit,
    Event,
    MatchEnded,
)
from paiju.simulate import hand_seed, table_command
from paiju.table import Config, TableState
from paiju.table_life import QUIET, bot_to_record

Seed = bytes | bytearray | memoryview | str
MAX_EVENTS = 25_000  # events a log may hold (the table service's max_events)


class AtLimit(Exception):
    """A command would leave no room for the match's ending under the bound on events: the match
    ended instead (``frames``: its ending's)."""

    def __init__(self, frames: list[Frame]) -> None:
        super().__init__("the table reached its limit of events")
        self.frames = frames


def seed_text(seed: Seed) -> str:
    """The table's secret as text: bytes (the browser's CSPRNG) in hex, text as it is.

    Raises:
        ValueError: an empty seed.
    """
    text = bytes(seed).hex() if isinstance(seed, bytes | bytearray | memoryview) else str(seed)
    if not text:
        raise ValueError("a practice table needs a seed")
    return text


def bot_move(state: TableState, seat: int, level: str = DEFAULT_LEVEL) -> Command:
    """A bot's move for ``seat`` at ``level`` (``paiju.levels``), chosen on the state rebuilt from
    the seat's view alone (``client.state_from_view``), as the bots service chooses: it never sees
    another seat's cards.

    Raises:
        KeyError: no such level.
    """
    return levels.choose(state_from_view(state.config, api.view(state, seat)), seat, level)


def default_names(players: int, seat: int) -> list[str]:
    """The person's name, and each bot's as the bots service names it."""
    return ["你 You" if s == seat else f"Bot {s + 1} 机器人" for s in range(players)]


class PracticeTable:
    """One practice match, driven by frames and times; see the module's docstring.

    Made by ``start`` or ``resume``; every call that may change the table answers
    ``{"frames": [...], "wake": ms or None}``: the frames to send the page in order, and when to
    call ``advance`` next (None: nothing happens until the person acts).
    """

    def __init__(
        self,
        config: Config[Any],
        seat: int,
        seed: Seed,
        now_ms: int,
        *,
        names: Sequence[str] | None = None,
        table: str = "practice",
        level: str = DEFAULT_LEVEL,
        clock: Mapping[str, int] | None = None,
        bot_delay_ms: int = BOT_DELAY_MS,
        auto_delay_ms: int = AUTO_DELAY_MS,
        max_events: int = MAX_EVENTS,
    ) -> None:
        """A table before its first step (``start`` and ``resume`` make one).

        Raises:
            ValueError: a seat not at the table, names not one per seat, an unknown level, a
                clock the game does not keep, an empty seed.
        """
        if not 0 <= seat < config.players:
            raise ValueError(f"seat {seat}: a seat is 0 to {config.players - 1}")
        if level not in levels.LEVELS:
            raise ValueError(f"no bot level {level!r} (levels: {', '.join(levels.LEVELS)})")
        if names is not None and len(names) != config.players:
            raise ValueError(f"names: one per seat ({config.players})")
        self.config = config
        self.seat = seat
        self.table = table
        self.level = level
        self.clock = Clock.of(
            config.game, clock, bot_delay_ms=bot_delay_ms, auto_delay_ms=auto_delay_ms
        )
        self.max_events = max_events  # the bound on the log, as at a server table
        self.names = list(names) if names is not None else default_names(config.players, seat)
        self.created_ms = now_ms
        self._new_match(seed_text(seed), now_ms)

    def _new_match(self, secret: str, now_ms: int) -> None:
        self.secret = secret  # every hand's deal seed derives from it; the log never holds it
        self.state: TableState = api.initial_state(self.config)
        self.events: list[Event] = []
        self.lines: list[str] = []  # the events' log lines, written once each
        self.since_ms = now_ms  # when the current wait began
        self.released: int | None = None  # the hand whose 继续 deadline has passed
        self.finished_ms: int | None = None
        self.applied: dict[str, tuple[str, int, int]] = {}  # command id: (command, index, count)

    @classmethod
    def start(
        cls,
        game: str,
        variant: str | None = None,
        *,
        seed: Seed,
        now_ms: int,
        seat: int = 0,
        bot_seats: Sequence[int] | None = None,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> PracticeTable:
        """A new practice table of ``game`` (``variant``: its default when None; ``options``
        over the variant's; ``players``: the variant's largest count when None), the person at
        ``seat`` and a bot at every other (``bot_seats``, when given, must name exactly those),
        its first deal made. ``settings``: ``names`` (one per seat, the log's header's), ``table``
        (its id in the frames and the log), ``level`` (the bots', ``paiju.levels``: ``basic``
        入门, ``normal`` 普通), ``clock`` (seconds per kind of decision over the game's
        defaults), ``bot_delay_ms``, ``auto_delay_ms``, ``max_events``.

        Raises:
            ValueError: an unknown game, variant or option, a bad player count, seat or bots.
        """
        config = api.make_config(game, variant, players, dict(options or {}))
        others = sorted(s for s in range(config.players) if s != seat)
        if bot_seats is not None and sorted(bot_seats) != others:
            raise ValueError(f"bot_seats: every seat but the person's ({others})")
        host = cls(config, seat, seed, now_ms, **settings)
        host._steps(now_ms)  # commit and deal: nobody sees the frames of a table not yet opened
        return host

    @classmethod
    def resume(
        cls,
        log: str | Sequence[str],
        *,
        seed: Seed,
        seat: int,
        now_ms: int,
        since_ms: int | None = None,
        **settings: Any,
    ) -> PracticeTable:
        """The table that wrote ``log`` (``log_text``), from the same ``seed`` and ``seat``: its
        state replayed from the events, its next steps those the first would take. Its wait
        began at ``since_ms`` (default ``now_ms``: a reloaded page's clock starts again). The
        table id and names are the header's unless ``settings`` give them (else as ``start``).

        Raises:
            ValueError: not a log (a ``RuleError``), or one whose deals the seed did not commit to.
        """
        lines = [line for line in (log.splitlines() if isinstance(log, str) else log) if line]
        if not lines:
            raise ValueError("an empty log")
        config = read_header(lines[0])
        head = json.loads(lines[0])
        table = settings.pop("table", None) or head.get("table") or "practice"
        names = settings.pop("names", None) or head.get("names")
        host = cls(config, seat, seed, now_ms, names=names, table=table, **settings)
        for line in lines[1:]:
            event = decode_event(line)
            if isinstance(event, DealCommitted) and event.commitment != commitment_of(
                hand_seed(host.secret, event.hand_no)
            ):
                raise ValueError(f"hand {event.hand_no} was not dealt from this seed")
            host.state = api.evolve(host.state, event)
            host.events.append(event)
        host.lines = dump_lines(config, host.events)[1:]
        if host.state.phase == "over":
            host.finished_ms = now_ms
        host.since_ms = now_ms if since_ms is None else since_ms
        host._steps(now_ms)
        return host

    def rematch(self, seed: Seed, now_ms: int) -> Frame:
        """再来一局: a new match at this table, dealt from a fresh ``seed`` (the last match's log
        is the caller's to keep, before this), answered as ``open``."""
        self._new_match(seed_text(seed), now_ms)
        self._steps(now_ms)
        return self.open(now_ms)

    # --- frames in -------------------------------------------------------------------------------

    def open(self, now_ms: int) -> Frame:
        """What a page gets as it opens the table: ``welcome`` (the person's seat), the view now,
        and the result once the match is over (after what was due by ``now_ms``)."""
        self._due_by(now_ms)  # a page that opens sees the table as it is now
        return self._out([welcome(self.table, self.seat), *self._snapshot()])

    def receive(self, frame: Mapping[str, Any] | str, now_ms: int) -> Frame:
        """A frame from the page (a dict, or its JSON text), answered after what was due by
        ``now_ms``: a command is decided (``ack``, or an ``error`` with its id), ``ping`` has
        its ``pong``, ``sync`` (and ``hello``, after a ``welcome``: the seat is the person's, no
        token is asked) the view now."""
        frames = self._due_by(now_ms)
        try:
            message = client_frame(frame)
        except FrameError as err:
            return self._out([*frames, error_frame(err)])
        kind = message["type"]
        if kind == "command":
            frames += self._command(message["id"], message["command"], now_ms)
        elif kind == "ping":
            frames.append({"type": "pong", "nonce": message.get("nonce")})
        else:
            if kind == "hello":
                frames.append(welcome(self.table, self.seat))
            frames += self._snapshot()
        return self._out(frames)

    def advance(self, now_ms: int) -> Frame:
        """Do what is due by ``now_ms``: the bots' moves, the person's passed deadline, the 继续
        gate's, each followed by the table's own steps."""
        return self._out(self._due_by(now_ms))

    def _command(self, command_id: str, data: dict[str, Any], now_ms: int) -> list[Frame]:
        """The person's command: checked, decided as a seat's own (托管 off first), applied once
        per id."""
        try:
            command = seat_command(command_id, data, self.seat)
            said = fingerprint(command)
            if command_id in self.applied:
                earlier, index, count = self.applied[command_id]
                if earlier != said:
                    raise FrameError("id_reused", id=command_id)
                return [ack(command_id, True, index, count, self.state.version)]
            index = self.state.version
            frames = self._append(command, api.decide_own, now_ms)
        except (FrameError, RuleError) as err:
            return [error_frame(err, command_id)]
        except AtLimit as end:  # the match ended instead
            too_long = FrameError("table_too_long", limit=self.max_events)
            return [*end.frames, error_frame(too_long, command_id)]
        except PaijuError as err:  # a card the engine cannot read
            return [error_frame(RuleError("bad_command", detail=short(err, 200)), command_id)]
        count = self.state.version - index
        self.applied[command_id] = (said, index, count)
        frames.append(ack(command_id, False, index, count, self.state.version))
        return frames + self._steps(now_ms)

    # --- the table's own play --------------------------------------------------------------------

    def due(self) -> Due | None:
        """What the table does next by itself, and when (``practice_clock``; None: the match is
        over, or the table waits for the person without a limit)."""
        return self.clock.due(self.state, self.seat, self.since_ms, self.released)

    def _due_by(self, now_ms: int) -> list[Frame]:
        """Everything due by ``now_ms``, each done at ``now_ms`` (a wait it starts begins then)."""
        frames: list[Frame] = []
        while (due := self.due()) is not None and due.at <= now_ms:
            try:
                if due.kind == "continue":
                    self.released = self.state.hand_no  # the deal waits no longer
                elif due.kind == "bot":
                    assert due.seat is not None
                    frames += self._append(self.bot_move(due.seat), api.decide_own, now_ms)
                else:  # the person's deadline passed, or his seat is in 托管: played for him
                    assert due.seat is not None
                    frames += self._append(AutoMove(seat=due.seat), api.decide, now_ms)
            except AtLimit as end:
                frames += end.frames
            frames += self._steps(now_ms)
        return frames

    def bot_move(self, seat: int) -> Command:
        """The bot's move for ``seat`` at its level (``bot_move``)."""
        return bot_move(self.state, seat, self.level)

    def _next_step(self) -> Command | None:
        """The table's next own step: a bot seat's level recorded before the first deal (as a
        server table records its bots'), else ``simulate.table_command``'s."""
        bots = {seat: self.level for seat in range(self.config.players) if seat != self.seat}
        return bot_to_record(self.state, bots) or table_command(self.state, self.secret)

    def _steps(self, now_ms: int) -> list[Frame]:
        """The table's own steps (commit, deal, reveal: ``simulate.table_command``) until a seat
        is to act, the deal waits for 继续, or the match is over."""
        frames: list[Frame] = []
        while (
            not holds(self.state, self.seat, self.released)
            and (step := self._next_step()) is not None
        ):
            try:
                frames += self._append(step, api.decide, now_ms)
            except AtLimit as end:
                frames += end.frames
        return frames

    def _append(
        self,
        command: Command,
        decide: Callable[[TableState, Command], list[Event]],
        now_ms: int,
    ) -> list[Frame]:
        """Decide ``command`` and apply its events: the person's state frame after each (settled
        on the last, unless the table leaves that state at once), and ``over`` if the match ended.

        Raises:
            RuleError: the rules refuse it (nothing changes).
            AtLimit: its events would leave no room under ``max_events`` for the match's ending,
                which ends the match instead (as the table service's ``tables.limit``).
        """
        events = decide(self.state, command)
        version = self.state.version
        if not (events and isinstance(events[-1], MatchEnded)) and (
            version + len(events) + ENDING_EVENTS > self.max_events
        ):
            limit = max(self.max_events, version + ENDING_EVENTS)
            raise AtLimit(self._apply(api.decide(self.state, EndAtLimit(limit=limit)), now_ms))
        return self._apply(events, now_ms)

    def _apply(self, events: list[Event], now_ms: int) -> list[Frame]:
        states = []
        for event in events:
            self.state = api.evolve(self.state, event)
            states.append(self.state)
        self.events += events
        self.lines += dump_lines(self.config, events)[1:]
        if any(e.TYPE not in QUIET for e in events):
            self.since_ms = now_ms
        frames = [
            self._state(event.TYPE, state, last=i == len(events) - 1)
            for i, (event, state) in enumerate(zip(events, states, strict=True))
        ]
        if self.state.phase == "over" and self.finished_ms is None:
            self.finished_ms = now_ms
            frames.append(over_frame(self.table, self.state, self.seat))
        return frames

    # --- frames out ------------------------------------------------------------------------------

    def _state(self, event: str | None, state: TableState, last: bool) -> Frame:
        settled = last and not api.passing(state)
        due = self.due() if settled else None
        shown = (due.at, due.seat) if due is not None and due.shown else None
        return state_frame(self.table, self.seat, event, state, settled, shown)

    def _snapshot(self) -> list[Frame]:
        """The view now, and the result once the match is over."""
        frames = [self._state(None, self.state, last=True)]
        if self.state.phase == "over":
            frames.append(over_frame(self.table, self.state, self.seat))
        return frames

    def _out(self, frames: list[Frame]) -> Frame:
        due = self.due()
        return {"frames": frames, "wake": None if due is None else due.at}

    # --- what the page reads beside the frames ---------------------------------------------------

    def log_lines(self) -> list[str]:
        """The log so far (``paiju.log.file``): its header, with the names, and an event a line
        (each written as its event was applied: the log is kept after every move)."""
        return dump_lines(self.config, (), self.table, self.names) + self.lines

    def log_text(self) -> str:
        return "\n".join(self.log_lines()) + "\n"

    def hands(self) -> Frame:
        """Every hand scored so far, with the running totals after each (a server table's
        ``GET /api/tables/<id>/hands``)."""
        return hands_sheet(self.table, self.config, self.events)

    def entry(self) -> Frame:
        """The table's entry as the lobby lists a server table (``GET /api/tables/<id>``)."""
        times = (self.created_ms, self.finished_ms)
        return table_entry(self.table, self.state, self.seat, self.names, self.clock.seconds, times)


# --- the worker's entry points (JSON in, JSON out) -----------------------------------------------


class PracticeJson:
    """A practice table for the browser's engine worker: every method takes and returns JSON
    text (the cheapest thing through Pyodide), answers as ``PracticeTable``'s.

    >>> start = {"game": "guanpai", "variant": "boke", "seat": 0, "seed": "doc", "now_ms": 0}
    >>> table = PracticeJson.start(json.dumps(start))
    >>> [f["type"] for f in json.loads(table.open(0))["frames"]]
    ['welcome', 'state']
    """

    def __init__(self, table: PracticeTable) -> None:
        self.table = table

    @classmethod
    def start(cls, args_json: str) -> PracticeJson:
        """``PracticeTable.start`` of a JSON object of its arguments (``game``, ``variant``,
        ``seed``, ``now_ms``, ``seat``, ``options``, ``names``, ``level``, ``clock`` …)."""
        args = json.loads(args_json)
        return cls(PracticeTable.start(args.pop("game"), args.pop("variant", None), **args))

    @classmethod
    def resume(cls, log_text: str, args_json: str) -> PracticeJson:
        """``PracticeTable.resume`` of a log's text and a JSON object of the other arguments."""
        return cls(PracticeTable.resume(log_text, **json.loads(args_json)))

    def open(self, now_ms: int) -> str:
        return json.dumps(self.table.open(now_ms), ensure_ascii=False)

    def receive(self, frame_json: str, now_ms: int) -> str:
        return json.dumps(self.table.receive(frame_json, now_ms), ensure_ascii=False)

    def advance(self, now_ms: int) -> str:
        return json.dumps(self.table.advance(now_ms), ensure_ascii=False)

    def rematch(self, seed: str, now_ms: int) -> str:
        return json.dumps(self.table.rematch(seed, now_ms), ensure_ascii=False)

    def log(self) -> str:
        return self.table.log_text()

    def hands(self) -> str:
        return json.dumps(self.table.hands(), ensure_ascii=False)

    def entry(self) -> str:
        return json.dumps(self.table.entry(), ensure_ascii=False)
