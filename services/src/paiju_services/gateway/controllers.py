"""The HTTP API under ``/api``: the game catalogue, tables (create, list and search, read), seats
(take, leave), bots and closing (the owner's), 再来一局, commands, a table's state at any event
index, its scored hands, and a finished table's full log."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.params import Parameter

from paiju import api
from paiju_services.errors import ServiceError, short
from paiju_services.gateway.backend import Backend
from paiju_services.gateway.schemas import (
    BotsIn,
    BotsOut,
    CloseOut,
    CommandIn,
    CommandOut,
    CreatedOut,
    CreateTableIn,
    HandsOut,
    HealthOut,
    In,
    JoinIn,
    JoinOut,
    LeaveOut,
    LogOut,
    RematchOut,
    StateOut,
    TableOut,
    table_out,
)
from paiju_services.inputs import check_depth, command_seat
from paiju_services.messages import (
    AddBots,
    CloseTable,
    CreateTable,
    Join,
    LeaveSeat,
    StartRematch,
)

TableId = Annotated[str, Parameter(description="a table id: 16 hex digits", max_length=64)]
LIVE = frozenset({"open", "playing"})
Authorization = Annotated[str | None, Parameter(header="Authorization")]

B = TypeVar("B", bound=In)
_decoders: dict[type[Any], msgspec.json.Decoder[Any]] = {}


async def check_body(request: Request[Any, Any, Any]) -> None:
    """Before any handler parses a body: refuse JSON nested too deeply (``bad_json``, 400), from a
    scan of the raw bytes, so no parser ever recurses into it."""
    if request.method in ("POST", "PUT", "PATCH"):
        check_depth(await request.body())


async def strict_body(request: Request[Any, Any, Any], kind: type[B]) -> B:
    """The request body decoded again, strictly: Litestar converts leniently (``"1"`` would pass
    for a number); here every field must have exactly its JSON type.

    Raises:
        ServiceError: ``bad_request`` (a field of the wrong type), ``bad_json``.
    """
    decoder = _decoders.get(kind)
    if decoder is None:
        decoder = _decoders[kind] = msgspec.json.Decoder(kind, strict=True)
    try:
        body: B = decoder.decode(await request.body())
    except msgspec.ValidationError as exc:
        raise ServiceError("bad_request", detail=short(exc)) from None
    except msgspec.DecodeError as exc:
        raise ServiceError("bad_json", detail=short(exc)) from None
    return body


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if there is one."""
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


@get("/api/health", tags=["system"], summary="Health of this gateway and what it depends on")
async def health(backend: Backend) -> Response[HealthOut]:
    checks = await backend.health()
    ok = all(checks.values())
    body = HealthOut(
        status="ok" if ok else "degraded",
        instance=backend.settings.instance,
        nats=checks["nats"],
        jetstream=checks["jetstream"],
        table_service=checks["table_service"],
        bots_service=checks["bots_service"],
    )
    return Response(body, status_code=200 if checks["nats"] and checks["jetstream"] else 503)


@get("/api/games", tags=["games"], summary="The game catalogue: games, variants, seats")
async def games() -> list[dict[str, Any]]:
    return api.list_games()


class TablesController(Controller):
    path = "/api/tables"
    tags = ["tables"]  # noqa: RUF012

    @get(
        summary="Tables, newest first: the live ones (open and playing) unless ?status= says "
        "otherwise; ?game= and ?player= search, ?before= pages (the last one's time)"
    )
    async def list_tables(
        self,
        backend: Backend,
        status: Literal["live", "open", "playing", "finished", "closed"] = "live",
        game: Annotated[str | None, Parameter(max_length=32)] = None,
        player: Annotated[str | None, Parameter(max_length=32)] = None,
        before: float | None = None,
        page_size: Annotated[int, Parameter(ge=1, le=200)] = 200,
    ) -> list[TableOut]:
        return await backend.tables(
            LIVE if status == "live" else frozenset({status}),
            page_size,
            game=game,
            player=player,
            before=before,
        )

    @post(summary="Create a table: game, variant, players, options", status_code=201)
    async def create(
        self, backend: Backend, request: Request[Any, Any, Any], data: CreateTableIn
    ) -> CreatedOut:
        data = await strict_body(request, CreateTableIn)
        created = await backend.create_table(
            CreateTable(
                game=data.game,
                variant=data.variant,
                players=data.players,
                options=data.options,
                request_id=data.request_id,
                clock=data.clock,
            )
        )
        table = table_out(await backend.meta(created.table), backend.settings.open_expiry)
        return CreatedOut(
            **{f: getattr(table, f) for f in table.__struct_fields__},
            owner_token=created.owner_token,
        )

    @get("/{table_id:str}", summary="A table: settings, seats, status")
    async def table(self, backend: Backend, table_id: TableId) -> TableOut:
        return table_out(await backend.meta(table_id), backend.settings.open_expiry)

    @post("/{table_id:str}/seats", status_code=201, summary="Join a seat: returns the seat's token")
    async def join(
        self, backend: Backend, request: Request[Any, Any, Any], table_id: TableId, data: JoinIn
    ) -> JoinOut:
        data = await strict_body(request, JoinIn)
        joined = await backend.join(
            table_id,
            Join(name=data.name, seat=data.seat, seed=data.seed, request_id=data.request_id),
        )
        return JoinOut(
            table=table_id, seat=joined.seat, token=joined.token, ws=f"/ws/tables/{table_id}"
        )

    @post(
        "/{table_id:str}/bots",
        status_code=200,
        summary="Fill empty seats with bots (the owner: Authorization: Bearer <owner token>)",
    )
    async def bots(
        self,
        backend: Backend,
        request: Request[Any, Any, Any],
        table_id: TableId,
        data: BotsIn | None = None,
        authorization: Authorization = None,
    ) -> BotsOut:
        if (await request.body()).strip():
            data = await strict_body(request, BotsIn)
        added = await backend.add_bots(
            table_id,
            AddBots(
                seats=data.seats if data else None,
                level=data.level if data else None,
                levels=data.levels if data else None,
                owner_token=bearer(authorization),
            ),
        )
        return BotsOut(table=table_id, seats=added.seats)

    @post(
        "/{table_id:str}/close",
        status_code=200,
        summary="Close a table that has not started (the owner: Authorization: Bearer <owner token>)",
    )
    async def close(
        self, backend: Backend, table_id: TableId, authorization: Authorization = None
    ) -> CloseOut:
        closed = await backend.close_table(table_id, CloseTable(owner_token=bearer(authorization)))
        return CloseOut(table=table_id, status=closed.status)

    @post(
        "/{table_id:str}/leave",
        status_code=200,
        summary="Give up a seat: open again before the start, played by 托管 after it "
        "(Authorization: Bearer <seat token>)",
    )
    async def leave(
        self, backend: Backend, table_id: TableId, authorization: Authorization = None
    ) -> LeaveOut:
        token = bearer(authorization)
        if token is None:
            raise ServiceError("unauthorized")
        left = await backend.leave(table_id, LeaveSeat(token=token))
        return LeaveOut(table=table_id, seat=left.seat)

    @post(
        "/{table_id:str}/rematch",
        status_code=200,
        summary="再来一局: the same seats at a new linked table (Authorization: Bearer <seat token>)",
    )
    async def rematch(
        self, backend: Backend, table_id: TableId, authorization: Authorization = None
    ) -> RematchOut:
        token = bearer(authorization)
        if token is None:
            raise ServiceError("unauthorized")
        started = await backend.rematch(table_id, StartRematch(token=token))
        return RematchOut(
            table=started.table,
            seat=started.seat,
            waiting=started.waiting,
            ws=f"/ws/tables/{started.table}",
        )

    @get("/{table_id:str}/hands", summary="Every hand scored so far, with the running totals")
    async def hands(self, backend: Backend, table_id: TableId) -> HandsOut:
        return await backend.hands(table_id)

    @post(
        "/{table_id:str}/commands",
        status_code=200,
        summary="A seat's command (Authorization: Bearer <seat token>)",
    )
    async def command(
        self,
        backend: Backend,
        request: Request[Any, Any, Any],
        table_id: TableId,
        data: CommandIn,
        authorization: Annotated[str | None, Parameter(header="Authorization")] = None,
    ) -> CommandOut:
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ServiceError("unauthorized")
        token = token.strip()
        data = await strict_body(request, CommandIn)
        seat = await backend.seat_of(table_id, token)
        claimed = command_seat(data.command)
        if claimed != seat:
            raise ServiceError("not_your_seat", seat=claimed)
        done = await backend.command(table_id, token, data.id, data.command)
        return CommandOut(
            id=data.id,
            duplicate=done.duplicate,
            index=done.index,
            count=done.count,
            version=done.version,
        )

    @get(
        "/{table_id:str}/state",
        summary="The public view after the first ?at=N events (all hands too once finished)",
    )
    async def state(self, backend: Backend, table_id: TableId, at: int | None = None) -> StateOut:
        return await backend.state_at(table_id, at)

    @get(
        "/{table_id:str}/log",
        summary="A finished table's full log and result (?format=jsonl: the log file for paiju audit)",
        response_model=LogOut,
    )
    async def log(
        self, backend: Backend, table_id: TableId, format: Literal["json", "jsonl"] = "json"
    ) -> Response[Any]:
        table = await backend.finished_log(table_id)
        if format == "jsonl":
            return Response(
                b"".join(line + b"\n" for line in table.lines),
                media_type="application/x-ndjson",
                headers={"Content-Disposition": f'attachment; filename="{table_id}.jsonl"'},
            )
        return Response(backend.log_out(table))
