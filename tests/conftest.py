import matplotlib

matplotlib.use("Agg")  # unit tests draw off-screen; notebooks (nbval) keep the inline backend

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
