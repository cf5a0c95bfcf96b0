"""Fast construction and copies of frozen, slotted dataclasses built on every move: a game's state, the service's
published update and table info.

A frozen dataclass's generated ``__init__`` sets every field through ``object.__setattr__``
(the frozen class refuses plain assignment), several times slower than a plain slot store
(docs/performance.md); a move builds a new state, an update and a table info. ``builder(cls)`` gives a function
with the signature of ``cls(...)`` that fills the slots of an unfrozen twin class with the
same slot layout and then makes the object an instance of ``cls``. What comes out is an
ordinary instance of ``cls``: frozen, equal and hashable as if built by ``cls(...)``.
``replacer(cls)`` is ``dataclasses.replace`` through the same route.

Only plain dataclasses qualify: frozen, slotted, no ``__post_init__``, no default factories,
every field set by ``__init__`` (``engine.games``' states, ``engine.service``'s updates and table infos).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")
_MISSING = object()


def _fields(cls: type[Any]) -> tuple[dataclasses.Field[Any], ...]:
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which a builder would skip")
    fields = dataclasses.fields(cls)
    for f in fields:
        if not f.init or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} is not a plain init field")
    if tuple(f.name for f in fields) != tuple(cls.__slots__):
        raise TypeError(f"{cls.__name__} has slots beyond its fields")
    return fields


def _twin(cls: type[Any]) -> type[Any]:
    # Same slots in the same order on the same base: CPython allows switching __class__ between the two.
    return type(f"_{cls.__name__}Twin", (), {"__slots__": cls.__slots__})


def _compile(name: str, source: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    exec(compile(source, f"<records {name}>", "exec"), namespace)  # the way dataclasses builds __init__
    fn: Callable[..., Any] = namespace[name]
    return fn


def builder(cls: Callable[P, T]) -> Callable[P, T]:
    """A function building ``cls(...)`` from the same arguments, four times faster."""
    klass: type[Any] = cls  # type: ignore[assignment]
    fields = _fields(klass)
    params = ", ".join(f.name if f.default is dataclasses.MISSING else f"{f.name}=_d_{f.name}" for f in fields)
    body = "".join(f"    self.{f.name} = {f.name}\n" for f in fields)
    source = f"def build({params}):\n    self = _new(_twin)\n{body}    self.__class__ = _cls\n    return self\n"
    namespace: dict[str, Any] = {"_new": object.__new__, "_twin": _twin(klass), "_cls": klass}
    namespace.update({f"_d_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING})
    fn = _compile("build", source, namespace)
    fn.__doc__ = f"A new {klass.__name__}, as {klass.__name__}(...) builds it."
    return fn


def replacer(cls: type[T]) -> Callable[..., T]:
    """``dataclasses.replace`` for ``cls``: a copy of an instance with some fields changed, by keyword."""
    fields = _fields(cls)
    params = ", ".join(f"{f.name}=_M" for f in fields)
    body = "".join(f"    self.{f.name} = old.{f.name} if {f.name} is _M else {f.name}\n" for f in fields)
    source = (
        f"def replace(old, *, {params}):\n    self = _new(_twin)\n{body}    self.__class__ = _cls\n    return self\n"
    )
    namespace: dict[str, Any] = {"_new": object.__new__, "_twin": _twin(cls), "_cls": cls, "_M": _MISSING}
    fn = _compile("replace", source, namespace)
    fn.__doc__ = f"A copy of a {cls.__name__} with some fields changed."
    return fn
