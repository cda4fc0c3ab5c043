"""One protocol session: one superred Target (the factory's create), its current run and the pending pause."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from superred.core.interfaces.target import Target
from superred.core.interfaces.task import NotApplicable
from superred.core.types.event import Event, EventResponse

from redscope_bridge.claim_host import ClaimHostedTarget
from redscope_bridge.codec import ControllableEvent, response_from_wire, wire_event, wire_pause
from redscope_bridge.errors import ProtocolError, error_text


class _Pending:
    def __init__(self, call_id: str, pause: dict[str, Any], event: ControllableEvent) -> None:
        self.call_id = call_id
        self.pause = pause
        self.event = event
        self.future: asyncio.Future[EventResponse] = asyncio.get_running_loop().create_future()


class RunDriver:
    """The target's ``run(emit, send_event)`` as an asyncio task: each pause is one HTTP round trip."""

    def __init__(self, run_id: str, target: Target) -> None:
        self.id = run_id
        self._buffer: list[dict[str, Any]] = []
        self._pending: _Pending | None = None
        self._outcome: dict[str, Any] | None = None
        self._waiter: asyncio.Future[dict[str, Any]] | None = None
        self._cancelled = False
        self._calls = 0
        self._task = asyncio.create_task(self._drive(target))

    @property
    def active(self) -> bool:
        return self._outcome is None and not self._cancelled

    async def _drive(self, target: Target) -> None:
        try:
            await target.run(self._emit, self._pause)
        except asyncio.CancelledError:
            return  # the session was reset, deleted or expired: nobody waits for this run
        except BaseException as exc:
            self._settle({"status": "failed", "error": error_text(exc)})
            return
        outcome: dict[str, Any] = {"status": "finished", "error": None}
        if isinstance(target, ClaimHostedTarget) and target.evaluates_runs:
            # The served task judges the run here, on the trajectory recorded as superred's Controller records it.
            try:
                outcome["evaluation"] = await target.evaluate_last()
            except asyncio.CancelledError:
                return
            except Exception as exc:
                outcome["evaluation_error"] = error_text(exc)
        self._settle(outcome)

    def _emit(self, event: Event) -> None:
        # Raises on a bad item, in the target, as superred's own Trajectory.emit would.
        wire = wire_event(event)
        if self._outcome is None and not self._cancelled:
            self._buffer.append(wire)

    async def _pause(self, event: Event) -> EventResponse:
        if self._pending is not None:
            raise RuntimeError("the target paused again before its previous pause was answered")
        self._calls += 1
        call_id = f"c{self._calls}"
        pending = _Pending(call_id, wire_pause(call_id, event), event)  # type: ignore[arg-type]
        self._pending = pending
        self._wake()
        return await pending.future

    def _settle(self, outcome: dict[str, Any]) -> None:
        if self._outcome is None and not self._cancelled:
            self._outcome = outcome
            self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        events, self._buffer = self._buffer, []
        if self._pending is not None:
            step = {
                "run_id": self.id,
                "events": events,
                "status": "paused",
                "pause": self._pending.pause,
                "error": None,
            }
        elif self._outcome is not None:
            step = {"run_id": self.id, "events": events, "pause": None, **self._outcome}
        else:
            self._buffer = events
            return
        self._waiter = None
        waiter.set_result(step)

    async def next_step(self) -> dict[str, Any]:
        """The next RunStep: at the next pause or the run's end, with what was emitted since the last one."""
        if self._waiter is not None:
            raise ProtocolError(409, "not_pending", f"run {self.id} is already answering a request")
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiter = waiter
        self._wake()
        try:
            return await waiter
        finally:
            # A client that went away must not leave its waiter behind (the next request gets the step).
            if self._waiter is waiter:
                self._waiter = None

    def respond(self, call_id: str, response: dict[str, Any]) -> None:
        pending = self._pending
        if pending is None or pending.call_id != call_id:
            expected = "no call is pending" if pending is None else f"the pending call is {pending.call_id}"
            raise ProtocolError(409, "not_pending", f"call {call_id} is not pending in run {self.id}: {expected}")
        self._pending = None
        pending.future.set_result(response_from_wire(pending.event, response))

    async def cancel(self, why: str) -> None:
        """Stops the run (reset, delete, expiry): a pending ``send_event`` raises CancelledError in the target."""
        if self._cancelled:
            return
        self._cancelled = True
        self._pending = None
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            # A request still waiting for this run's next step gets its end, not silence.
            waiter.set_result(
                {
                    "run_id": self.id,
                    "events": [],
                    "status": "failed",
                    "pause": None,
                    "error": f"the run was stopped: {why}",
                }
            )
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task


class TargetSession:
    def __init__(self, session_id: str, target: Target, now: float) -> None:
        self.id = session_id
        self.target = target
        self.last_seen = now
        self._run: RunDriver | None = None
        self._runs = 0
        self._closed = False

    async def set_config(self, name: str, value: str) -> None:
        known = [c.name for c in self.target.config_specs]
        if name not in known:
            raise ProtocolError(
                422, "unknown_config", f"no config named '{name}' (known: {', '.join(known) or 'none'})"
            )
        try:
            hook = getattr(self.target, "aset_config", None)  # a served claim configures asynchronously
            if hook is not None:
                await hook(name, value)
            else:
                self.target.set_config(name, value)
        except Exception as exc:
            raise ProtocolError(422, "invalid_config", f"config '{name}': {exc}") from exc

    async def select_task(self, index: int) -> None:
        """Addition: the served claim's task *index* (1-based) configures this session's target."""
        target = self.target
        if not isinstance(target, ClaimHostedTarget):
            raise ProtocolError(422, "unknown_task", "this target serves no claim (serve it with --claim)")
        if not 1 <= index <= target.n_tasks:
            raise ProtocolError(
                422, "unknown_task", f"no task {index}: the served claim has tasks 1 to {target.n_tasks}"
            )
        if self._run is not None and self._run.active:
            raise ProtocolError(409, "run_active", f"run {self._run.id} is still in progress in session {self.id}")
        try:
            await target.select_task(index)
        except NotApplicable as exc:
            raise ProtocolError(422, "not_applicable", f"task {index} does not apply to this target: {exc}") from exc
        except Exception as exc:
            raise ProtocolError(
                500, "target_error", f"task {index}'s configure_target raised {error_text(exc)}"
            ) from exc

    async def query(self, name: str, params: dict[str, str]) -> str:
        spec = next((q for q in self.target.query_specs if q.name == name), None)
        if spec is None:
            known = ", ".join(q.name for q in self.target.query_specs) or "none"
            raise ProtocolError(422, "unknown_query", f"no query named '{name}' (known: {known})")
        missing = [p.name for p in spec.params if p.name not in params]
        if missing:
            plural = "s" if len(missing) > 1 else ""
            names = ", ".join(f"'{p}'" for p in missing)
            raise ProtocolError(422, "missing_param", f"query '{name}' needs parameter{plural} {names}")
        try:
            hook = getattr(self.target, "aquery", None)  # a served claim evaluates asynchronously
            value = await hook(name, **params) if hook is not None else self.target.query(name, **params)
        except Exception as exc:
            raise ProtocolError(500, "target_error", f"query '{name}' failed: {error_text(exc)}") from exc
        if not isinstance(value, str):
            raise ProtocolError(500, "target_error", f"query '{name}' returned {type(value).__name__}, not text")
        return value

    async def start_run(self) -> dict[str, Any]:
        if self._run is not None and self._run.active:
            raise ProtocolError(409, "run_active", f"run {self._run.id} is still in progress in session {self.id}")
        self._runs += 1
        self._run = RunDriver(f"r{self._runs}", self.target)
        return await self._run.next_step()

    async def respond(self, run_id: str, call_id: str, response: dict[str, Any]) -> dict[str, Any]:
        if self._run is None or self._run.id != run_id:
            raise ProtocolError(409, "not_pending", f"run {run_id} is not the current run of session {self.id}")
        self._run.respond(call_id, response)
        return await self._run.next_step()

    async def reset(self) -> None:
        """superred ``reset_ephemeral_state``; a run still paused is stopped first."""
        if self._run is not None:
            await self._run.cancel("session reset")
        self._run = None
        try:
            await self.target.reset_ephemeral_state()
        except Exception as exc:
            raise ProtocolError(500, "target_error", f"reset_ephemeral_state failed: {error_text(exc)}") from exc

    async def close(self, why: str = "session deleted") -> None:
        """superred ``teardown``: stops the run and releases the target. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._run is not None:
            await self._run.cancel(why)
        self._run = None
        try:
            await self.target.teardown()
        except Exception as exc:
            raise ProtocolError(500, "target_error", f"teardown failed: {error_text(exc)}") from exc
