"""A pure-Python wheel made straight from a plugin's pyproject.toml, for the install test.

setuptools before 70.1 cannot build a wheel without the ``wheel`` package, and the
test must not download one. This writes the same wheel setuptools would for these
small example projects (modules, METADATA, entry_points.txt, RECORD); pip then
installs it exactly as it installs any wheel.
"""

from __future__ import annotations

import base64
import hashlib
import re
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path


def setuptools_can_build() -> bool:
    """Whether ``pip install --no-build-isolation`` can build a wheel here, offline."""
    try:
        version = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return False
    numbers = tuple(int(n) for n in re.findall(r"\d+", version)[:2])
    if numbers >= (70, 1):  # bdist_wheel moved into setuptools in 70.1
        return True
    try:
        metadata.version("wheel")
    except metadata.PackageNotFoundError:
        return False
    return True


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(project: Path, out: Path) -> Path:
    """Write ``project``'s wheel (py3-none-any) into ``out`` and return its path."""
    config = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    about = config["project"]
    name, version = about["name"], about["version"]
    dist = re.sub(r"[-_.]+", "_", name).lower()
    info = f"{dist}-{version}.dist-info"
    files: dict[str, bytes] = {}
    for package in config["tool"]["setuptools"]["packages"]:
        folder = package.replace(".", "/")
        for path in sorted((project / folder).glob("*.py")):
            files[f"{folder}/{path.name}"] = path.read_bytes()
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if "description" in about:
        lines.append(f"Summary: {about['description']}")
    if "requires-python" in about:
        lines.append(f"Requires-Python: {about['requires-python']}")
    lines += [f"Requires-Dist: {dependency}" for dependency in about.get("dependencies", [])]
    files[f"{info}/METADATA"] = ("\n".join(lines) + "\n").encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: twofold-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    groups = []
    for group, entries in about.get("entry-points", {}).items():
        groups.append(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()))
    files[f"{info}/entry_points.txt"] = "\n".join(groups).encode()
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    wheel = out / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return wheel
