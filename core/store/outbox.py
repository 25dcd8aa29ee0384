"""The outbox: a decision's change the store could not take, kept on the desk's machine and saved when it answers.

Why here, and not in the browser's localStorage or in the store: the store is what is away (a
PostgreSQL that does not answer, a SQLite file another program holds locked, a full disk), and
the browser is where a reload or a restart begins from nothing, while the desk's process and
its disk outlive both. A change is kept as one small JSON file per change in ``outbox_dir``
(written to a temporary name, flushed and renamed, so a half-written change is never read), and
in memory beside it: a change whose file cannot be written (the desk's own disk full) is still
kept in memory, until the desk restarts, and the editor is told which. The file holds the
store's label (host:port/db, never a password), the run, the claim, the editor, the field and
value, the version the change was made on, the moment it was made and the change it was made on
top of; a reload or another browser of the same editor on the same run finds its changes again.

The courier, one thread per outbox, tries every waiting change every ``retry_every`` seconds
while any waits, so that no page waits for a store that is away. A change is saved on the version
it was made on (``events.save_change``, with its own moment); one made on top of a change still
waiting goes after it, on the version that one was saved as. A change that meets a newer version
is a conflict, held for the editor to settle as any refused change ("keep theirs" or "save mine");
a store that already holds the very change (same editor, field, value and moment: a commit whose
answer was lost) counts as saved. It refuses to merge two editors' changes, to save a change
twice, and to write a store's password anywhere. ``within`` bounds the desk's own first try: a
store that accepts and never answers holds a thread of its own, never the page.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from core.errors import DecisionError, StoreError
from core.models import Decision
from core.store.events import DecisionSave, as_text

log = logging.getLogger("verbatim.outbox")


@dataclass(frozen=True)
class Waiting:
    """One change of one field of a decision that the store has not taken yet.

    ``seen`` is the version the change was made on; ``after`` the id of the waiting change it was
    made on top of ("" when none); ``at`` the moment it was made, recorded as its event's time.
    """

    id: str
    store: str
    run_id: str
    claim_id: str
    editor: str
    field: str
    value: Any
    seen: int
    at: str
    after: str = ""

    def key(self) -> tuple[str, str, str]:
        """Return whose changes these are: (store label, run id, editor)."""
        return (self.store, self.run_id, self.editor)


class Fate(StrEnum):
    """What became of a waiting change."""

    SAVED = "saved"
    CONFLICT = "conflict"
    REFUSED = "refused"  # the store answered and will never take it (DecisionError): said, then dropped


@dataclass(frozen=True)
class Outcome:
    """A waiting change's fate: the decision now stored, the refused save (conflicts), or why it was refused."""

    change: Waiting
    fate: Fate
    decision: Decision
    save: DecisionSave | None = None
    why: str = ""


class Kept(StrEnum):
    """Where a waiting change is kept."""

    DISK = "disk"  # a file on the desk's machine: it outlives a reload, the browser and the desk
    MEMORY = "memory"  # the desk's own disk refused the file: kept until the desk restarts


class Late(Exception):
    """The store did not answer within the wait; the call goes on in its own thread (not a VerbatimError: a value)."""


#: Saves a page waits for at most a few seconds; a store that hangs holds one of these threads, never a page.
_CALLS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="verbatim-save")
_T = TypeVar("_T")


def within(seconds: float, call: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Return what call gives when it answers within seconds; raise Late when not (it may still land later).

    A change sent this way keeps its moment: if its commit lands after all, the outbox knows it as its own.
    """
    future = _CALLS.submit(call, *args, **kwargs)
    try:
        return future.result(timeout=seconds)
    except FuturesTimeout:
        raise Late(f"no answer within {seconds:g} s") from None


def new_id() -> str:
    """Return a fresh id for a waiting change."""
    return secrets.token_hex(8)


#: Opens the store a label names, for the courier (the desk gives it; the label alone holds no password).
Opener = Callable[[], Any]


@dataclass
class _Box:
    """The outbox's mutable state, under its lock (a dataclass, not frozen: the courier changes it)."""

    waiting: dict[str, Waiting] = field(default_factory=dict)
    kept: dict[str, Kept] = field(default_factory=dict)
    held: dict[str, Outcome] = field(default_factory=dict)  # conflicts, until the editor settles them
    done: dict[str, Outcome] = field(default_factory=dict)  # saved or refused, for every tab to learn of
    openers: dict[str, Opener] = field(default_factory=dict)
    stores: dict[str, Any] = field(default_factory=dict)
    answering: dict[str, bool] = field(default_factory=dict)


class Outbox:
    """The changes waiting for their store, and the courier that delivers them (a class: it owns a thread)."""

    def __init__(
        self, folder: Path | None, *, retry_every: float = 2.0, remember: int = 500, courier: bool = True
    ) -> None:
        """Keep changes in folder (None: in memory only); read back the changes an earlier desk left there.

        With ``courier`` off no thread is started: ``deliver`` is called by hand (the tests).
        """
        self.folder = folder
        self.retry_every = retry_every
        self._remember = remember
        self._courier = courier
        self._lock = threading.RLock()
        self._delivering = threading.Lock()  # one delivery at a time: a change is never sent twice at once
        self._box = _Box()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        if folder is not None:
            for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
                try:
                    change = Waiting(**json.loads(path.read_text(encoding="utf-8")))
                except (OSError, ValueError, TypeError):
                    continue  # not one of ours, or cut short: never guess at a change
                self._box.waiting[change.id] = change
                self._box.kept[change.id] = Kept.DISK

    # ------------------------------------------------------------------ keeping

    def keep(self, change: Waiting) -> Kept:
        """Keep a change until its store takes it; return where it is kept (a file, or memory when the disk refuses)."""
        kept = self._write(change)
        with self._lock:
            self._box.waiting[change.id] = change
            self._box.kept[change.id] = kept
        self._start()
        return kept

    def _write(self, change: Waiting) -> Kept:
        if self.folder is None:
            return Kept.MEMORY
        tmp = self.folder / f".{change.id}.tmp"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tmp.open("w", encoding="utf-8") as out:
                json.dump(asdict(change), out)
                out.flush()
                os.fsync(out.fileno())
            tmp.replace(self.folder / f"{change.id}.json")
        except OSError as exc:  # a full disk, a folder that cannot be written: memory still holds it
            log.warning("A waiting change could not be written to %s: %s", self.folder, exc)
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            return Kept.MEMORY
        return Kept.DISK

    def _forget(self, change_id: str, saved_as: int | None = None, outcome: Outcome | None = None) -> None:
        """Drop a change; one made on top of it goes on the version it was saved as, or on its own when dropped.

        An outcome given is kept as done in the same step: a page that asks between never finds the
        change neither waiting nor done (and so says nothing of it).
        """
        with self._lock:
            if outcome is not None:
                self._done(outcome)
            self._box.waiting.pop(change_id, None)
            self._box.kept.pop(change_id, None)
            self._box.held.pop(change_id, None)
            moved = [
                replace(other, after="", seen=other.seen if saved_as is None else saved_as)
                for other in self._box.waiting.values()
                if other.after == change_id
            ]
            for other in moved:
                self._box.waiting[other.id] = other
        for other in moved:  # the file says the new version too: a restart goes on from there
            if self._box.kept.get(other.id) is Kept.DISK:
                self._write(other)
        if self.folder is not None:
            with contextlib.suppress(OSError):
                (self.folder / f"{change_id}.json").unlink(missing_ok=True)

    def settle(self, change_id: str, outcome: Outcome | None = None) -> None:
        """Drop a change the editor settled (kept theirs, or saved theirs aside); an outcome given is kept as done."""
        self._forget(change_id, outcome=outcome)

    # ------------------------------------------------------------------ asking

    def waiting(self, key: tuple[str, str, str], *, held: bool = True) -> list[Waiting]:
        """Return the changes of (store, run, editor) not yet saved, oldest first; conflicts too unless held=False."""
        with self._lock:
            found = [c for c in self._box.waiting.values() if c.key() == key and (held or c.id not in self._box.held)]
        return sorted(found, key=lambda c: c.at)

    def where(self, change_id: str) -> Kept | None:
        """Return where a waiting change is kept, or None when it is no longer waiting."""
        with self._lock:
            return self._box.kept.get(change_id)

    def outcomes(self, key: tuple[str, str, str]) -> list[Outcome]:
        """Return what became of the changes of (store, run, editor): saved, refused and held conflicts."""
        with self._lock:
            found = [*self._box.done.values(), *self._box.held.values()]
        return sorted((o for o in found if o.change.key() == key), key=lambda o: o.change.at)

    def answering(self, store: str) -> bool | None:
        """Return whether the store answered the courier's last try (None before any try)."""
        with self._lock:
            return self._box.answering.get(store)

    # ------------------------------------------------------------------ delivering

    def serve(self, store: str, opener: Opener) -> None:
        """Tell the courier how to open the store a label names; start it when changes wait for that store."""
        with self._lock:
            self._box.openers.setdefault(store, opener)
        self._start()

    def _start(self) -> None:
        with self._lock:
            if not self._courier or not self._box.waiting:
                return
            self._wake.set()
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._run, name="verbatim-outbox", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                if not any(c.id not in self._box.held for c in self._box.waiting.values()):
                    self._thread = None
                    return
            self.deliver()
            self._wake.wait(self.retry_every)
            self._wake.clear()

    def deliver(self) -> list[Outcome]:
        """Try every waiting change once, oldest first; return what became of those that were settled."""
        with self._delivering:
            return self._deliver()

    def _deliver(self) -> list[Outcome]:
        out: list[Outcome] = []
        away: set[str] = set()
        while True:  # again after a change is saved: one made on top of it may go now
            with self._lock:
                todo = sorted(
                    (
                        c
                        for c in self._box.waiting.values()
                        if c.id not in self._box.held and c.store not in away and c.after not in self._box.waiting
                    ),
                    key=lambda c: c.at,
                )
            if not todo:
                return out
            change = todo[0]
            store = self._store(change.store)
            if store is None:
                away.add(change.store)
                continue
            try:
                outcome = self.send(store, change)
            except StoreError:
                away.add(change.store)  # the store's engine reconnects by itself: the same Store is tried next time
                with self._lock:
                    self._box.answering[change.store] = False
                continue
            with self._lock:
                self._box.answering[change.store] = True
            if outcome.fate is Fate.CONFLICT:
                with self._lock:
                    self._box.held[change.id] = outcome
            else:
                self._forget(change.id, outcome.decision.version if outcome.fate is Fate.SAVED else None, outcome)
            out.append(outcome)

    @staticmethod
    def send(store: Any, change: Waiting) -> Outcome:
        """Save one change on its version; return its outcome (a change already stored counts as saved).

        Raises StoreError when the store does not take it now (away, locked, full): it waits on.
        """
        try:
            save: DecisionSave = store.save_decision_change(
                change.run_id,
                change.claim_id,
                change.field,
                change.value,
                change.seen,
                author=change.editor,
                at=change.at,
            )
        except DecisionError as exc:
            return Outcome(change, Fate.REFUSED, Decision(claim_id=change.claim_id), why=str(exc))
        if save.saved:
            return Outcome(change, Fate.SAVED, save.decision)
        mine = (change.editor, change.field, as_text(change.field, change.value), change.at)
        if any((e.author, e.field, e.after, e.at) == mine for e in save.missed):
            return Outcome(change, Fate.SAVED, save.decision)  # its commit got in; only the answer was lost
        return Outcome(change, Fate.CONFLICT, save.decision, save=save)

    def _done(self, outcome: Outcome) -> None:
        with self._lock:
            self._box.done[outcome.change.id] = outcome
            while len(self._box.done) > self._remember:  # oldest first: a dict keeps insertion order
                self._box.done.pop(next(iter(self._box.done)))

    def _store(self, label: str) -> Any:
        with self._lock:
            if label in self._box.stores:
                return self._box.stores[label]
            opener = self._box.openers.get(label)
        if opener is None:
            return None  # left by an earlier desk on another store: delivered when a desk opens that store
        try:
            store = opener()
        except StoreError:
            with self._lock:
                self._box.answering[label] = False
            return None
        with self._lock:
            self._box.stores[label] = store
        return store


_SHARED: dict[Path | None, Outbox] = {}
_SHARED_LOCK = threading.Lock()


def shared(folder: Path | None, *, retry_every: float) -> Outbox:
    """Return the one outbox of this process on folder (every desk session shares it)."""
    with _SHARED_LOCK:
        if folder not in _SHARED:
            _SHARED[folder] = Outbox(folder, retry_every=retry_every)
        return _SHARED[folder]
