"""The one compiled part, and one file beside the package (everything else is in
pyproject.toml).

The compiled part is the 2048 solver's search for 4x4 boards. It is optional: where it
cannot be built, the solver runs the same search in Python, with the same moves, only
slower. The file is ``twofold-rl.pth``, which Python runs at every start: it puts
``twofold_rl_startup``'s watch on the import system, so that importing gymnasium
registers twofold's environments (Gymnasium 1.0 dropped the entry points that did).
"""

from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

STARTUP = Path(__file__).resolve().parent / "startup" / "twofold-rl.pth"


class BuildWithStartup(build_py):
    """build_py, and the .pth file at the top of what is installed (site-packages)."""

    def run(self) -> None:
        super().run()
        # an editable wheel holds the install folder's files, not build_lib's (setuptools'
        # editable_wheel writes data, scripts and headers there too)
        into = self.get_finalized_command("install").install_lib if self.editable_mode else None
        self.copy_file(str(STARTUP), str(Path(into or self.build_lib) / STARTUP.name))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        found = super().get_outputs(include_bytecode)
        return found if self.editable_mode else [*found, str(Path(self.build_lib, STARTUP.name))]


setup(
    cmdclass={"build_py": BuildWithStartup},
    ext_modules=[
        Extension(
            "twofold.variants.classic2048._expectimax",
            sources=["variants/classic2048/_expectimax.c"],
            # the C search must add up the same doubles as the Python one: no fused multiply-add
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ],
)
