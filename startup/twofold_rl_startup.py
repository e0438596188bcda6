"""Registers twofold's environments with Gymnasium as gymnasium is imported (issue 34).

Gymnasium 0.26 to 0.29 imported every package's ``gymnasium.envs`` entry point on
``import gymnasium``; Gymnasium 1.0 removed that. So twofold installs ``twofold-rl.pth``
beside itself, and Python runs its one line at every start: it imports this module,
which imports nothing of twofold and only puts :class:`Watch` on ``sys.meta_path``.
When gymnasium is first imported, once its own import has finished, the watch imports
``twofold.rl``, whose import registers ``twofold/MODE-v0`` for every installed mode: so
``gymnasium.make("twofold/2248-v0")`` works with no import of twofold, as it did with the
old entry points.

It never breaks a Python process: where gymnasium is never imported it does nothing;
where ``twofold.rl`` cannot be imported (the ``rl`` extra's numpy missing, a half-removed
install) it stays silent, as there is nothing to register; any other failure is one
warning, and gymnasium imports all the same. ``TWOFOLD_NO_GYM_REGISTER=1`` turns it off
(then ``import twofold.rl``, or ``gymnasium.make("twofold.rl:twofold/2248-v0")``).
"""

# os and sys only (Python has both loaded by now): typing would cost 15 ms at every start
import os
import sys

#: set to anything but "" or "0" to leave Gymnasium alone
DISABLE_VARIABLE = "TWOFOLD_NO_GYM_REGISTER"
WATCHED = "gymnasium"
REGISTERING = "twofold.rl"


class Watch:
    """A finder that finds nothing itself: it gives gymnasium's own spec, its loader
    wrapped so that the registration runs once gymnasium's module has run."""

    def __init__(self) -> None:
        self.looking = False

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        if name != WATCHED or self.looking:
            return None
        self.looking = True
        try:
            spec = _spec_after(self, name, path, target)
        finally:
            self.looking = False
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        spec.loader = Registering(loader, self)
        return spec


class Registering:
    """gymnasium's loader, and the registration after it (then gymnasium keeps its own)."""

    def __init__(self, loader: object, watch: Watch) -> None:
        self.loader = loader
        self.watch = watch

    def __getattr__(self, name: str) -> object:
        return getattr(self.loader, name)

    def create_module(self, spec: object) -> object:
        create = getattr(self.loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module: object) -> None:
        try:
            self.loader.exec_module(module)
        finally:
            # nothing of the watch stays on gymnasium's module once it has run
            module.__loader__ = self.loader
            if getattr(module, "__spec__", None) is not None:
                module.__spec__.loader = self.loader
        unwatch(self.watch)
        register()


def _spec_after(watch: Watch, name: str, path: object, target: object) -> object:
    """The spec the finders after ``watch`` give (the ones Python would ask next)."""
    for finder in list(sys.meta_path):
        find = getattr(finder, "find_spec", None)
        if finder is watch or find is None:
            continue
        spec = find(name, path, target)
        if spec is not None:
            return spec
    return None


def register() -> None:
    """Import ``twofold.rl`` (which registers its environments), unless it is on its way."""
    if sys.modules.get(REGISTERING) is not None:
        return  # being imported (it imported gymnasium) or imported: it registers itself
    try:
        __import__(REGISTERING)
    except ImportError:
        return  # without the extra's parts there is nothing to register
    except Exception as error:  # a broken twofold must not break gymnasium's import
        _warn(error)


def _warn(error: Exception) -> None:
    try:
        import warnings

        warnings.warn(
            f"twofold registered no Gymnasium environments ({type(error).__name__}: {error}); "
            f"{DISABLE_VARIABLE}=1 stops it trying",
            RuntimeWarning,
            stacklevel=2,
        )
    except Exception:  # warnings made errors (-W error): stay silent, as promised
        pass


def watch() -> Watch | None:
    """Put the watch on ``sys.meta_path`` (the .pth file's call); None where it is off."""
    if os.environ.get(DISABLE_VARIABLE, "") not in ("", "0"):
        return None
    if WATCHED in sys.modules:  # imported already (a second call): register now
        register()
        return None
    found = next((f for f in sys.meta_path if isinstance(f, Watch)), None)
    if found is None:
        found = Watch()
        sys.meta_path.insert(0, found)
    return found


def unwatch(found: Watch) -> None:
    if found in sys.meta_path:
        sys.meta_path.remove(found)
