"""The compiled parts (everything else is in pyproject.toml).

The 2048 solver's search for 4x4 boards, and the batched 2048 of the learning
environments (many games stepped at once). Both are optional: where they cannot be built,
the solver runs the same search in Python and the batch steps its games in Python, with
the same moves and deals, only slower (and each says so).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "twofold.variants.classic2048._expectimax",
            sources=["twofold/variants/classic2048/_expectimax.c"],
            # the C search must add up the same doubles as the Python one: no fused multiply-add
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "twofold.variants.classic2048._batch",
            sources=["twofold/variants/classic2048/_batch.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ],
)
