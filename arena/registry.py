"""The registry every extension kind is built on: providers, judge modes, rating methods,
golden checks, agent architectures, report formats and mutation operators.

Each kind is a :class:`Registry`, a mapping from a name to what is registered under it. An
entry is an object or a lazy import path ``package.module:attr`` (what an entry point names).
Three ways in, the same for the built-ins and a plugin:

- a decorator in your module (``@model_provider("mine", "one line")``,
  ``@judge_mode("mine", ...)``, ...),
- an entry point in your package's ``pyproject.toml`` (group ``agent_arena.<kind>``, e.g.
  ``[project.entry-points."agent_arena.providers"] mine = "my_pkg.provider:MyProvider"``),
  discovered on a lookup miss in every process (Ray workers included),
- ``REGISTRY.register(name, obj_or_path)`` at run time (this process only).

Each kind's registry object and decorator live with its base class, in that kind's package
(``GOLDEN_CHECKS`` and ``golden_check`` beside ``GoldenCheck`` in
:mod:`arena.scoring.checks._base`, ``PROVIDERS`` in :mod:`arena.models.providers._registry`,
...); :mod:`arena.extend` collects them. This module is the foundation they share and names
none of them. Every built-in is decorated where it is defined, with its name and summary
there. A registry's :attr:`Registry.homes` are its own package or module (``__package__``,
``__name__``): they are imported (packages walked) the first time the registry is read, so
``import arena`` imports none of them. A new built-in is a new decorated module under its
kind's home.

A name is registered once: registering it again (by any of the three ways) raises
:class:`~arena.errors.NameTaken` unless ``replace=True`` is given. :meth:`Registry.lookup` is
the one way to get an entry; a miss raises :class:`~arena.errors.UnknownName`.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from arena.errors import NameTaken, UnknownName

ENTRY_POINT_PREFIX = "agent_arena."

T = TypeVar("T")
F = TypeVar("F")


def _load(path: str) -> Any:
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"an import path is 'package.module:attr', got {path!r}")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def _import_all(name: str) -> None:
    """Import the module ``name`` and, for a package, every module under it (sorted)."""
    import pkgutil  # only when a registry first loads its built-ins

    module = importlib.import_module(name)
    path = getattr(module, "__path__", None)
    if path is None:
        return
    for info in sorted(pkgutil.iter_modules(path), key=lambda info: info.name):
        _import_all(f"{name}.{info.name}")


def summary_of(obj: Any) -> str:
    """An object's one-line summary: its ``summary`` attribute, else its docstring's first line.

    Args:
        obj: a registered object (class, instance or function).

    Returns:
        The first line of its summary, or ``""`` when it has none.
    """
    text = getattr(obj, "summary", None)
    if not isinstance(text, str) or not text:
        text = (getattr(obj, "__doc__", None) or "").strip()
    return text.splitlines()[0].strip() if text else ""


def _module_of(entry: Any) -> str | None:
    if isinstance(entry, str):
        return entry.partition(":")[0]
    module = getattr(entry, "__module__", None)
    if module is None or module == "builtins":
        module = getattr(type(entry), "__module__", None)
    return module if isinstance(module, str) else None


class Registry(MutableMapping[str, Any], Generic[T]):
    """The entries of one extension kind, by name.

    ``kind`` names it in messages (``model provider``); ``group`` is its entry-point group.
    ``homes`` are the modules or packages defining the built-ins (the registry's own, given as
    ``__package__`` or ``__name__`` where it is declared): the first time the registry is read
    (names, lookup, summaries, membership, iteration) every module under them is imported
    once, and their decorators register them. ``base`` is what every entry must be: an
    instance of that class, or with ``classes=True`` a subclass of it; ``None`` for a
    callable. A registry in a light module beside a heavy base class (or one whose module
    imports what looks the registry up) is made with ``base_declared_later=True``: the base
    class's module declares it (:meth:`declare_base`), and a registration checked before
    that imports the homes first (whose built-ins import the base). ``adapt(name, obj, summary)``
    turns what is registered or loaded into the stored entry (a class into an instance, the
    registry's name and summary onto it). ``declared_by`` names the decorator the built-ins
    are declared with, so :meth:`listing` can read them from source.

    As a mapping it holds the raw entries (objects or import paths); :meth:`lookup` gives
    the loaded, checked entry.
    """

    def __init__(
        self,
        kind: str,
        group: str,
        *,
        homes: tuple[str, ...] = (),
        base: type | None = None,
        base_declared_later: bool = False,
        classes: bool = False,
        adapt: Callable[[str, Any, str | None], Any] | None = None,
        declared_by: str | None = None,
    ) -> None:
        self.kind, self.group, self.base, self.classes = kind, group, base, classes
        self._base_later = base_declared_later
        self.homes, self.declared_by = homes, declared_by
        self._entries: dict[str, Any] = {}
        self._summaries: dict[str, str] = {}
        self._origins: dict[str, str | None] = {}
        self._ranks: dict[str, tuple[bool, bool, int]] = {}
        self._replaced: set[str] = set()
        self._adapt = adapt or (lambda _name, obj, _summary: obj)
        self._lock = threading.RLock()  # guards the tables; never held while importing
        self._once = threading.RLock()  # one thread imports the homes, once
        self._loading = False
        self._loaded = not homes
        self._scanned = False

    # MutableMapping: the raw entries (objects or import paths).
    def __getitem__(self, name: str) -> Any:
        self.load_builtins()
        return self._entries[name]

    def __setitem__(self, name: str, entry: Any) -> None:
        """``REGISTRY[name] = entry`` is :meth:`register` without a summary (refused for a
        registered name)."""
        self.register(name, entry)

    def __delitem__(self, name: str) -> None:
        self.load_builtins()
        with self._lock:
            del self._entries[name]
            for table in (self._summaries, self._origins, self._ranks):
                table.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __contains__(self, name: object) -> bool:
        """Registered (the entry points are read again on a miss)."""
        self.load_builtins()
        if name in self._entries:
            return True
        self.discover()
        return name in self._entries

    def origin(self, name: str) -> str | None:
        """The module that registered ``name`` (the one its import path names, for a lazy
        entry), or ``None`` when unknown."""
        self.load_builtins()
        return self._origins.get(name)

    def is_builtin(self, name: str) -> bool:
        """``name`` is registered by a module under one of :attr:`homes`."""
        return self._under_homes(self.origin(name))

    def load_builtins(self) -> None:
        """Import every module under :attr:`homes` (once per process): their decorators
        register the built-ins. Re-entered from one of those imports, it returns at once."""
        if self._loaded:
            return
        with self._once:
            if self._loaded or self._loading:
                return
            self._loading = True
            try:
                for home in self.homes:
                    _import_all(home)
                self._loaded = True
            finally:
                self._loading = False

    def register(
        self,
        name: str,
        entry: T | str,
        summary: str | None = None,
        *,
        replace: bool = False,
        origin: str | None = None,
        order: int | None = None,
    ) -> None:
        """Register ``entry`` (an object or an import path ``package.module:attr``) as ``name``.

        An entry from outside :attr:`homes` registered without ``replace`` loads the
        built-ins first, so a name a built-in takes is refused here, and the built-in stays
        (a ``replace=True`` registration made before they load keeps the name).

        Args:
            name: the name users write (no colon).
            entry: the object, or its import path (loaded on first :meth:`lookup`).
            summary: its one-line summary (default: its ``summary`` attribute or the first
                line of its docstring).
            replace: replace an entry already registered under ``name`` (it keeps its place
                in :meth:`names` unless ``order`` is given).
            origin: the module defining the entry (default: the entry's own module), which
                may register it over an import path naming that module.
            order: its place in :meth:`names` among the built-ins (an entry defined under
                :attr:`homes`) or among the others; unordered entries follow, in
                registration order.

        Raises:
            ValueError: the name is empty or has a colon.
            NameTaken: ``name`` is registered already and ``replace`` is false.
            TypeError: ``entry`` is not of the registry's base type.
        """
        if not isinstance(name, str) or not name or ":" in name:
            raise ValueError(f"bad {self.kind} name {name!r}")
        origin = origin or _module_of(entry)
        if not replace and not self._under_homes(origin):
            self.load_builtins()  # outside the lock: it imports the homes' modules
        with self._lock:
            current = self._entries.get(name)
            same = current is not None and self._same(name, current, entry, origin)
            if current is not None and not replace and not same:
                if name in self._replaced and self._under_homes(origin):
                    self._ranks[name] = (False, order is None, order or 0)
                    return  # a built-in loading after what replaced it: keeps its place
                raise NameTaken(self.kind, name, self._describe(current))
            if summary is None and same:  # the decorator's summary stays
                summary = self._summaries.get(name)
            stored = entry if isinstance(entry, str) else self._checked(name, entry, summary)
            self._entries[name] = stored
            self._origins[name] = origin
            if current is None or order is not None:
                self._ranks[name] = (not self._under_homes(origin), order is None, order or 0)
            if replace:
                self._replaced.add(name)
            if summary is not None:
                self._summaries[name] = summary
            else:
                self._summaries.pop(name, None)

    def _under_homes(self, origin: str | None) -> bool:
        return origin is not None and any(
            origin == home or origin.startswith(home + ".") for home in self.homes
        )

    def _same(self, name: str, current: Any, entry: Any, origin: str | None) -> bool:
        """The entry is the one already there: the same object or path, or one defined by
        the module the registered import path names (registering itself as it is imported)."""
        if current is entry or current == entry:
            return True
        return origin is not None and self._origins.get(name) == origin

    def _describe(self, entry: Any) -> str:
        if isinstance(entry, str):
            return entry
        return f"{_module_of(entry)}:{getattr(entry, '__qualname__', type(entry).__qualname__)}"

    def declare_base(self, base: type) -> None:
        """Declare the class every entry must be an instance (or a subclass) of: called by
        the module defining it, for a registry made with ``base_declared_later=True``.

        Args:
            base: the base class.
        """
        self.base = base

    def base_class(self) -> type | None:
        """The class every entry is an instance (or a subclass) of; ``None``: any callable.

        Raises:
            TypeError: the base is declared later and the built-ins did not declare it.
        """
        if self.base is None and self._base_later:
            self.load_builtins()  # a built-in imports the base class, which declares it
            if self.base is None:
                raise TypeError(f"the base class of every {self.kind} is not declared")
        return self.base

    def _checked(self, name: str, obj: Any, summary: str | None) -> Any:
        """The stored entry for ``obj`` (adapted), or TypeError when it is not of the base."""
        base = self.base_class()
        if not (callable(obj) or (base is not None and isinstance(obj, base))):
            raise self._wrong_type(name, obj)  # neither a class nor a function nor an instance
        stored = self._adapt(name, obj, summary)
        if base is None:
            ok = callable(stored)
        elif isinstance(stored, type):
            ok = self.classes and issubclass(stored, base)
        else:
            ok = not self.classes and isinstance(stored, base)
        if not ok:
            raise self._wrong_type(name, stored)
        return stored

    def _wrong_type(self, name: str, obj: Any) -> TypeError:
        base = self.base_class()
        want = f"{base.__module__}:{base.__qualname__}" if base else "a callable"
        what = f"a subclass of {want}" if self.classes else f"a {want}"
        return TypeError(f"{self.kind} {name!r} must be {what}, got {obj!r}")

    def decorator(
        self,
        name: str,
        summary: str | None = None,
        *,
        replace: bool = False,
        order: int | None = None,
    ) -> Any:
        """A decorator registering the decorated object under ``name``; returns it unchanged."""

        def register(obj: F) -> F:
            self.register(name, obj, summary, replace=replace, order=order)  # type: ignore[arg-type]
            return obj

        return register

    def discover(self) -> None:
        """Add the entry points of :attr:`group` not registered yet (as lazy entries), after
        the built-ins.

        Read once per process, and again on every lookup miss (a package installed since).

        Raises:
            NameTaken: an entry point names what another entry is registered under.
        """
        from importlib.metadata import entry_points  # costs an import: only when needed

        self.load_builtins()
        self._scanned = True
        for point in entry_points(group=self.group):
            origin = _module_of(point.value)
            with self._lock:
                current = self._entries.get(point.name)
                if current is None:
                    self._entries[point.name] = point.value
                    self._origins[point.name] = origin
                    self._ranks[point.name] = (not self._under_homes(origin), True, 0)
                elif not self._same(point.name, current, point.value, origin):
                    raise NameTaken(
                        self.kind,
                        point.name,
                        self._describe(current),
                        f"entry point {point.value} ({self.group})",
                    )

    @contextmanager
    def scope(self) -> Iterator[None]:
        """Undo, on exit, every registration and removal made inside (for tests); the
        built-ins are loaded first, so they outlive the scope."""
        self.load_builtins()
        with self._lock:
            saved = self._tables()
        try:
            yield
        finally:
            with self._lock:
                (
                    self._entries,
                    self._summaries,
                    self._origins,
                    self._ranks,
                    self._replaced,
                    self._scanned,
                ) = saved

    def _tables(
        self,
    ) -> tuple[
        dict[str, Any],
        dict[str, str],
        dict[str, str | None],
        dict[str, tuple[bool, bool, int]],
        set[str],
        bool,
    ]:
        return (
            dict(self._entries),
            dict(self._summaries),
            dict(self._origins),
            dict(self._ranks),
            set(self._replaced),
            self._scanned,
        )

    def names(self) -> tuple[str, ...]:
        """Every registered name, entry points included: the built-ins (defined under
        :attr:`homes`) first, then the others; within each, by ``order``, then the unordered
        ones in registration order."""
        self.load_builtins()
        if not self._scanned:
            self.discover()
        with self._lock:
            ranks = dict(self._ranks)
            return tuple(sorted(self._entries, key=lambda name: ranks[name]))

    def lookup(self, name: str) -> T:
        """The entry registered as ``name``, loaded (and checked) on first use.

        Args:
            name: the registered name.

        Returns:
            The entry: an instance of the registry's base type, a subclass of it (judge
            modes) or a callable (agents, report formats).

        Raises:
            UnknownName: nothing is registered as ``name``, entry points read again.
            TypeError: what the name's import path loads is not of the base type.
        """
        self.load_builtins()
        with self._lock:
            entry = self._entries.get(name)
        if entry is None:
            self.discover()
            with self._lock:
                entry = self._entries.get(name)
        if entry is None:
            raise UnknownName(self.kind, name, self.names())
        if not isinstance(entry, str):
            found: T = entry
            return found
        loaded = _load(entry)
        with self._lock:
            current = self._entries.get(name)
            if current is None or isinstance(current, str):  # not registered on import
                current = self._checked(name, loaded, self._summaries.get(name))
                self._entries[name] = current
            found = current
        return found

    def summaries(self) -> dict[str, str]:
        """Name -> one-line summary of every entry, in :meth:`names` order (loads the entries
        that give none)."""
        out: dict[str, str] = {}
        for name in self.names():
            text = self._summaries.get(name)
            if text is None:
                try:
                    text = summary_of(self.lookup(name))
                except Exception as exc:  # a broken plugin shows up broken, not as a crash
                    text = f"(cannot load: {type(exc).__name__}: {exc})"
            out[name] = text
        return out

    def help_lines(self) -> str:
        """``name: summary`` per entry, semicolon-separated (for argparse help; see
        :meth:`listing`)."""
        return "; ".join(f"{name}: {text}" for name, text in self.listing().items())

    def listing(self) -> dict[str, str]:
        """:meth:`summaries`, read without importing the built-ins' modules while nothing
        else has loaded them (for help texts: ``arena --help`` imports no model library).

        The built-ins are read from their decorators in the source (:mod:`arena._declared`);
        when one cannot be, when an entry point is installed (a plugin's summary is its
        module's), or when entries from outside the homes are registered already, this is
        :meth:`summaries`.
        """
        static = self._static()
        if static is None:
            return self.summaries()
        return {d.name: d.summary for d in static}

    def declared_attribute(self, name: str, attribute: str) -> Any:
        """A class attribute of the built-in ``name`` as its source sets it (see
        :meth:`listing`), or the loaded entry's attribute when it cannot be read so."""
        for entry in self._static() or ():
            if entry.name == name and attribute in entry.attributes:
                return entry.attributes[attribute]
        return getattr(self.lookup(name), attribute)

    def _static(self) -> list[Any] | None:
        """The built-ins read from source in :meth:`names` order, or None (see
        :meth:`listing`)."""
        with self._lock:  # a built-in imported as a dependency is read from source all the same
            others = any(not self._under_homes(origin) for origin in self._origins.values())
        if self._loaded or others or self.declared_by is None:
            return None
        from importlib.metadata import entry_points

        from arena._declared import declared

        found = declared(self.homes, self.declared_by)
        if found is None or entry_points(group=self.group):
            return None
        return sorted(found, key=lambda d: (d.order is None, d.order or 0))


def entry_point_group(kind: str) -> str:
    """The entry-point group of an extension kind: ``agent_arena.<kind>``.

    Args:
        kind: the kind's key (``providers``, ``golden_checks``, ...).

    Returns:
        The group outside packages register entries under.
    """
    return ENTRY_POINT_PREFIX + kind


def adapt_named(name: str, obj: Any, summary: str | None) -> Any:
    """An ``adapt`` for :class:`Registry`: the class or instance itself, with the registry's
    name and summary as its ``name`` and ``summary`` attributes.

    Args:
        name: the registered name.
        obj: what is registered.
        summary: the registration's summary (default: the object's own).

    Returns:
        ``obj``, named.
    """
    text = summary or summary_of(obj)
    obj.name, obj.summary = name, text
    return obj


def adapt_instance(name: str, obj: Any, summary: str | None) -> Any:
    """An ``adapt`` for :class:`Registry`: an instance (a class is instantiated), named as
    :func:`adapt_named` names it.

    Args:
        name: the registered name.
        obj: a class or an instance.
        summary: the registration's summary (default: the object's own).

    Returns:
        The named instance.
    """
    return adapt_named(name, obj() if isinstance(obj, type) else obj, summary)


def adapt_instance_named(name: str, obj: Any, _summary: str | None) -> Any:
    """An ``adapt`` for :class:`Registry`: an instance (a class is instantiated) with the
    registry's name as its ``name`` (its summary stays its own).

    Args:
        name: the registered name.
        obj: a class or an instance.
        _summary: unused.

    Returns:
        The named instance.
    """
    instance = obj() if isinstance(obj, type) else obj
    instance.name = name
    return instance
