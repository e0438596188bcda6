"""The one compiled part (everything else is in pyproject.toml).

The 2048 solver's search for 4x4 boards. It is optional: where it cannot be built, the
solver runs the same search in Python, with the same moves, only slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "twofold.variants.classic2048._expectimax",
            sources=["variants/classic2048/_expectimax.c"],
            # the C search must add up the same doubles as the Python one: no fused multiply-add
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
    ],
)
