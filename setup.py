"""The compiled parts (everything else is in pyproject.toml).

The 2048 solver's search for 4x4 boards, and the batched 2048 of the learning
environments (many games stepped at once). Both are optional: where they cannot be built,
the solver runs the same search in Python and the batch steps its games in Python, with
the same moves and deals, only slower (and each says so).

The packages are found, not listed: ``twofold/`` is the package, and the three folders the
project is built around stand beside it, installed as its subpackages.
"""

from setuptools import Extension, find_namespace_packages, setup

#: import name -> folder; every package under them is found (data-only folders too)
FOLDERS = {
    "twofold": "twofold",
    "twofold.core": "core",
    "twofold.variants": "variants",
    "twofold.ui": "ui",
}


def packages() -> list[str]:
    """Every package under :data:`FOLDERS`, by its import name."""
    found = []
    for name, folder in FOLDERS.items():
        found.append(name)
        found += [
            f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=["*__pycache__*"])
        ]
    return found


setup(
    package_dir=FOLDERS,
    packages=packages(),
    ext_modules=[
        Extension(
            "twofold.variants.classic2048._expectimax",
            sources=["variants/classic2048/_expectimax.c"],
            # the C search must add up the same doubles as the Python one: no fused multiply-add
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "twofold.variants.classic2048._batch",
            sources=["variants/classic2048/_batch.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ],
)
