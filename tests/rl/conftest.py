"""The learning environments' tests see the example plugins, as tests/plugins does."""

from tests.plugins.conftest import EXAMPLES  # noqa: F401 (puts the examples on sys.path)
