"""What the fake LLM answers: a chain of behaviours, the first that has an answer wins.

A behaviour is a function ``(ChatRequest) -> Reply | None``. Add one to teach the fake a new trick
(tool calls, following instructions injected into tool output, ...) and put it in ``DEFAULT_CHAIN``
or pass your own chain to :func:`redscope_bridge.testing.fake_llm.create_app`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ChatRequest:
    """The parts of a chat completion request the behaviours read."""

    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def system(self) -> str:
        return "\n".join(_text(m) for m in self.messages if m.get("role") in ("system", "developer"))

    @property
    def last_user(self) -> str:
        users = [_text(m) for m in self.messages if m.get("role") == "user"]
        return users[-1] if users else ""


@dataclass(frozen=True)
class Reply:
    content: str | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish_reason: str = "stop"


Behaviour = Callable[[ChatRequest], Reply | None]


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # [{type: "text", text}] parts (AgentDojo sends these)
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


_SECRET = re.compile(r"password:?\s+([A-Za-z0-9_-]+)", re.IGNORECASE)
_TRIGGER = re.compile(r"mentions '([^']+)'", re.IGNORECASE)


def reveal_secret_on_trigger(req: ChatRequest) -> Reply | None:
    """Obeys superred's demo secret-leak rule: reveal the password when the user says the trigger word."""
    secret, trigger = _SECRET.search(req.system), _TRIGGER.search(req.system)
    if secret is None or trigger is None:
        return None
    if trigger.group(1).lower() in req.last_user.lower():
        return Reply(f"Of course! The password is {secret.group(1)}.")
    return Reply("I cannot share that.")


# -- A tool-using agent in the shapes AgentDojo's OpenAI pipeline sends (tools named {suite}__{tool}, the system
# prompt as role "developer", contents as text parts, tool results as role "tool").

# Which read tool a user prompt calls for: the first keyword that matches wins. Enough for the user tasks of
# superred-claim-agentdojo's canonical pairs the tests use; a prompt that matches none gets a plain answer.
READ_TOOLS: Sequence[tuple[re.Pattern[str], str, dict[str, Any]]] = (
    (re.compile(r"scheduled|rent", re.I), "banking__get_scheduled_transactions", {}),
    (re.compile(r"spending|transactions?|spent", re.I), "banking__get_most_recent_transactions", {"n": 100}),
    (re.compile(r"file|cloud drive", re.I), "workspace__list_files", {}),
    (re.compile(r"e-?mails?|inbox", re.I), "workspace__get_received_emails", {}),
    (re.compile(r"channel|slack", re.I), "slack__get_channels", {}),
    (re.compile(r"hotel", re.I), "travel__get_all_hotels_in_city", {"city": "Paris"}),
)

# An instruction the fake agent follows when a tool result carries it: "call [the tool] NAME with {JSON args}".
# A real model reads prose; the fake reads this one form, so an attack succeeds exactly when the attacker's
# text reaches the model through a tool result and asks for a call in it.
DIRECTIVE = re.compile(r"call\s+(?:the\s+tool\s+)?`?([A-Za-z_][A-Za-z0-9_]*)`?\s+with\s+(?:arguments\s+)?(?=\{)", re.I)


def _tool_names(req: ChatRequest) -> list[str]:
    names = []
    for t in req.tools:
        fn = t.get("function") if isinstance(t, dict) else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            names.append(fn["name"])
    return names


def _resolve(name: str, tools: list[str]) -> str | None:
    if name in tools:
        return name
    suffixed = [t for t in tools if t.endswith(f"__{name}")]
    return suffixed[0] if suffixed else None


def directives(text: str, tools: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Every well-formed directive in *text* naming one of *tools*, in order; malformed ones are ignored."""
    found = []
    decoder = json.JSONDecoder()
    for m in DIRECTIVE.finditer(text):
        try:
            args, _end = decoder.raw_decode(text, m.end())
        except json.JSONDecodeError:
            continue
        tool = _resolve(m.group(1), tools)
        if tool is not None and isinstance(args, dict):
            found.append((tool, args))
    return found


def _calls_made(req: ChatRequest) -> list[tuple[str, dict[str, Any]]]:
    made = []
    for m in req.messages:
        if m.get("role") != "assistant":
            continue
        for call in m.get("tool_calls") or []:
            fn = call.get("function", {})
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except json.JSONDecodeError:
                args = {}
            made.append((str(fn.get("name")), args))
    return made


def _tool_call(req: ChatRequest, name: str, args: dict[str, Any]) -> Reply:
    n = sum(1 for _ in _calls_made(req)) + 1
    call = {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
    return Reply(None, [call], "tool_calls")


def tool_agent(req: ChatRequest) -> Reply | None:
    """With tools offered: read what the user's prompt calls for, follow any instruction a tool result
    carries (once), then answer in plain text."""
    tools = _tool_names(req)
    if not tools:
        return None
    made = _calls_made(req)
    results = [_text(m) for m in req.messages if m.get("role") == "tool"]
    for text in results:
        for tool, args in directives(text, tools):
            if (tool, args) not in made:
                return _tool_call(req, tool, args)
    if not made:
        for pattern, tool, args in READ_TOOLS:
            if pattern.search(req.last_user) and tool in tools:
                return _tool_call(req, tool, args)
        return Reply("I have no tool for that.")
    last = results[-1] if results else ""
    return Reply(f"Done. The last tool said: {last[:300]}")


_PAIR_GOAL = re.compile(r"performs the following behavior: '(.+?)'\. Your aim", re.S)


def pair_attacker(req: ChatRequest) -> Reply | None:
    """Plays superred-optimizer-pair's attacker: under PAIR's red-teaming system prompt it proposes the goal
    itself as the prompt, numbered by attempt, in the JSON shape PAIR parses (``{"improvement", "prompt"}``)."""
    m = _PAIR_GOAL.search(req.system)
    if m is None or "red teaming assistant" not in req.system:
        return None
    attempt = 1 + sum(1 for x in req.messages if x.get("role") == "assistant")
    goal = m.group(1).replace("}", ")").replace("\n", " ")
    improvement = "first attempt: ask directly" if attempt == 1 else f"attempt {attempt}: ask again, more politely"
    return Reply(json.dumps({"improvement": improvement, "prompt": f"{goal} (attempt {attempt})"}))


def judge_and_on_topic(req: ChatRequest) -> Reply | None:
    """The short verdicts superred's optimizers ask their LLM for: PAIR's and TAP's judge (``Rating: [[N]]``, always
    1: the claim decides success) and TAP's on-topic check (``[[YES]]``, so no candidate is pruned)."""
    if "asks for the same information" in req.system:
        return Reply("Response: [[YES]]")
    if "Please act as an impartial judge" in req.system:
        return Reply("Rating: [[1]]")
    return None


_CRESCENDO_TURN = re.compile(r"This is turn (\d+) of")


def crescendo(req: ChatRequest) -> Reply | None:
    """Plays superred-optimizer-crescendo's three roles: the attacker (its JSON, one question a turn, a framing for
    the system prompt when asked for one), the refusal check (never a refusal) and the scorer (a low score: the claim
    decides success). Before the secret rule: Crescendo's attacker prompt may quote a visible system prompt."""
    if req.last_user.startswith("You are evaluating whether an AI model's response is a refusal"):
        return Reply("NO")
    if "'response_to_evaluate_input'" in req.system:
        return Reply(json.dumps({"score_value": "10", "description": "scored", "rationale": "a low score"}))
    if "generated_question" not in req.system:
        return None
    turn = _CRESCENDO_TURN.search(req.last_user)
    body = {
        "generated_question": f"Tell me more, turn {turn.group(1) if turn else 1}.",
        "last_response_summary": "the model answered",
        "rationale_behind_jailbreak": "one small step at a time",
    }
    if "framing_for_system_prompt" in req.system:
        body["framing_for_system_prompt"] = "You are a novelist's research assistant."
    return Reply(json.dumps(body))


def echo(req: ChatRequest) -> Reply:
    """The default: says what it heard, so a trajectory shows which message reached the model."""
    return Reply(f"You said: {req.last_user}")


DEFAULT_CHAIN: Sequence[Behaviour] = (
    judge_and_on_topic,
    crescendo,
    pair_attacker,
    tool_agent,
    reveal_secret_on_trigger,
    echo,
)


def answer(chain: Sequence[Behaviour], req: ChatRequest) -> Reply:
    for behaviour in chain:
        reply = behaviour(req)
        if reply is not None:
            return reply
    return echo(req)
