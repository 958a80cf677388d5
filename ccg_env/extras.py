"""The optional extras (``pip install 'ccg-env[NAME]'``), the modules each one provides, and the one-line refusal
of a feature whose extra is not installed, given before anything starts rather than at its first use.

Whether a module is installed is asked with :func:`importlib.util.find_spec`, which does not import it (torch and
Ray stay unimported until a model is first used).
"""

from __future__ import annotations

import importlib.util

#: The top-level modules each extra of pyproject.toml installs and the code here imports (checked against
#: pyproject.toml by tests/packaging/test_extras.py).
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib"),
    "rllib": ("ray", "torch"),
    "web": ("flask", "waitress"),
    "dataset": ("minari", "pyarrow"),
}


class MissingExtraError(ImportError):
    """A feature needs an optional extra that is not installed; the message names it and how to install it."""


def install_command(extra: str) -> str:
    """The pip command that installs ``extra``."""
    return f"pip install 'ccg-env[{extra}]'"


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here, in the order of :data:`EXTRA_MODULES`."""
    return [name for name in EXTRA_MODULES[extra] if not _installed(name)]


def require_extra(extra: str, needed_by: str) -> None:
    """Raise :class:`MissingExtraError` (one line naming ``needed_by``, the extra, the missing modules and the pip
    command) unless every module of ``extra`` is installed."""
    missing = missing_modules(extra)
    if missing:
        raise MissingExtraError(f"{needed_by} needs the optional extra '{extra}' ({', '.join(missing)} not "
                                f"installed): {install_command(extra)}")


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a finder that refuses the module, or a module without a spec
        return False
