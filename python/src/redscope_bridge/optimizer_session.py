"""One Optimizer-over-HTTP session: one superred task's optimizer, driven exactly as superred's Controller drives it.

Opening is the factory's call and ``initialize``; the optimizer's ``run(channel)`` is then an asyncio task on
a real superred ``EventChannel``, and each event request is one ``channel.send`` (so ``_dispatch``'s
bookkeeping, the response-type check and the channel's poisoning after a failure are superred's own).
Closing is the Controller's ``finally``: the channel closed, the run awaited, ``teardown``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from superred.core.channel import EventChannel
from superred.core.interfaces.optimizer import Optimizer
from superred.core.llm import LLMClient
from superred.core.types.event import Event, EventResponse
from superred.core.types.events import RunEndEvent, RunStartEvent
from superred.core.types.goal import Goal
from superred.core.types.llm import BudgetExhaustedError
from superred.core.types.trajectory import FilteredTrajectory

from redscope_bridge.errors import ProtocolError, error_text
from redscope_bridge.llm import LlmSettings, RecordingLLMClient, session_client
from redscope_bridge.optimizer_codec import SessionObjects, answer_of, timestamp_of
from redscope_bridge.optimizer_loader import ServedOptimizer
from redscope_bridge.wire import EventAnswer, EventBody, LlmCallWire, OpenSessionBody, SessionClosed, UsageWire

#: How long closing waits for the optimizer's run to end once its channel is closed (superred's Controller
#: waits forever; a server must not): then it is cancelled.
CLOSE_GRACE_S = 5.0


def _budget(exc: BudgetExhaustedError) -> ProtocolError:
    return ProtocolError(409, "budget_exhausted", str(exc))


class OptimizerSession:
    def __init__(
        self, session_id: str, served: ServedOptimizer, optimizer: Optimizer, llm: LLMClient, objects: SessionObjects
    ) -> None:
        self.id = session_id
        self.served = served
        self.optimizer = optimizer
        self.llm = llm
        self.objects = objects
        self.last_seen = 0.0
        self.channel = EventChannel()
        self._run_task: asyncio.Task[None] | None = None
        self._view: FilteredTrajectory | None = None
        self._run_events: dict[str, Event] = {}
        self._failed: str | None = None
        self._busy = False
        self._closed = asyncio.get_running_loop().create_future()

    @classmethod
    async def open(
        cls, session_id: str, served: ServedOptimizer, body: OpenSessionBody, settings: LlmSettings | None
    ) -> OptimizerSession:
        """The factory's call and ``initialize``. A budget spent in ``initialize`` is 409 ``budget_exhausted``,
        anything else it raises 500 ``optimizer_error``; either way ``teardown`` has run, as in superred."""
        optimizer = served.construct(body.get("kwargs") or {})
        objects = SessionObjects(body["security_domain"])
        controllables = [objects.controllable(c) for c in body["controllables"]]
        observables = objects.offered(body["observables"])
        llm = session_client(settings, body.get("task_cost_cap_usd"))
        try:
            await optimizer.initialize(Goal(body["goal"]["description"]), controllables, observables, llm)
        except BudgetExhaustedError as exc:
            await _quiet_teardown(optimizer)
            raise _budget(exc) from exc
        except Exception as exc:
            await _quiet_teardown(optimizer)
            raise ProtocolError(500, "optimizer_error", f"initialize raised {error_text(exc)}") from exc
        session = cls(session_id, served, optimizer, llm, objects)
        session._run_task = asyncio.create_task(session._run())
        return session

    async def _run(self) -> None:
        # As superred's Controller wraps it: a run that raises poisons the channel, so no send can hang.
        try:
            await self.optimizer.run(self.channel)
        except BaseException as exc:
            self.channel.set_error(exc)
            raise

    @property
    def busy(self) -> bool:
        return self._busy

    def usage(self) -> UsageWire:
        u = self.llm.usage
        return {"calls": int(u.calls), "cost": float(u.cost)}

    def llm_calls(self) -> list[LlmCallWire]:
        return self.llm.take_calls() if isinstance(self.llm, RecordingLLMClient) else []

    def _event(self, body: EventBody) -> Event:
        """Puts the request's items on this run's view, then the event where superred records it, and returns it."""
        w = body["event"]
        self.objects.add_tags(body.get("security_domain") or [])
        if w["type"] == "RunStartEvent":
            if body.get("trajectory"):
                raise ProtocolError(
                    400, "bad_request", "a RunStartEvent carries no trajectory: the run's view is empty"
                )
            self._view = FilteredTrajectory()
            self._run_events = {}
            return RunStartEvent(trajectory=self._view, event_id=w["event_id"], timestamp=timestamp_of(w["timestamp"]))
        view = self._view
        if view is None:
            raise ProtocolError(409, "no_run", f"a {w['type']} outside a run: send a RunStartEvent first")
        for item in body.get("trajectory") or []:
            built = self.objects.item(item, self._run_events)
            if isinstance(built, Event):
                self._run_events[built.event_id] = built
            view._push(built)
        event: Event = self.objects.run_end(w) if w["type"] == "RunEndEvent" else self.objects.controllable_event(w)
        self._run_events[event.event_id] = event
        # superred's Controller records pre/post-calls and the RunEnd on the view before it sends them.
        view._push(event)
        return event

    async def handle(self, body: EventBody) -> EventAnswer:
        if self._failed is not None:
            raise ProtocolError(409, "session_failed", f"the optimizer failed earlier in this session: {self._failed}")
        if self._busy:
            raise ProtocolError(409, "busy", "an event of this session is still being answered")
        self._busy = True
        try:
            event = self._event(body)
            response = await self._send(event)
            if isinstance(event, RunEndEvent):
                self._view = None  # the optimizer archived it (superred's _dispatch)
            return {"response": answer_of(response), "usage": self.usage(), "llm_calls": self.llm_calls()}
        finally:
            self._busy = False

    async def _send(self, event: Event) -> EventResponse:
        send = asyncio.ensure_future(self.channel.send(event))
        await asyncio.wait({send, self._closed}, return_when=asyncio.FIRST_COMPLETED)
        if not send.done():
            # Left to settle (cancelling it would make the optimizer's late answer an error in the loop's log);
            # its outcome is read, so it is never reported as an exception nobody retrieved.
            send.add_done_callback(lambda f: None if f.cancelled() else f.exception())
            raise ProtocolError(409, "session_failed", "the session was closed while the optimizer handled this event")
        try:
            return send.result()
        except BudgetExhaustedError as exc:
            self._failed = error_text(exc)
            raise _budget(exc) from exc
        except Exception as exc:
            self._failed = error_text(exc)
            raise ProtocolError(500, "optimizer_error", self._failed) from exc

    async def close(self) -> SessionClosed:
        """superred's ``finally``: the channel closed, the run awaited (then cancelled after a grace), ``teardown``."""
        if not self._closed.done():
            self._closed.set_result(None)
        self.channel.close()
        error: str | None = None
        task = self._run_task
        if task is not None:
            done, _ = await asyncio.wait({task}, timeout=CLOSE_GRACE_S)
            if not done:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
                error = f"the optimizer's run did not end within {CLOSE_GRACE_S:g} s of its channel closing: cancelled"
            elif not task.cancelled() and task.exception() is not None:
                error = error_text(task.exception())  # type: ignore[arg-type]
        await _quiet_teardown(self.optimizer)
        return {"usage": self.usage(), "error": error, "llm_calls": self.llm_calls()}


async def _quiet_teardown(optimizer: Optimizer) -> None:
    # superred swallows teardown's exceptions too.
    with contextlib.suppress(Exception):
        await optimizer.teardown()


def usage_zero() -> dict[str, Any]:
    return {"calls": 0, "cost": 0.0}
