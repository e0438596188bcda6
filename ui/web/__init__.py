"""``twofold serve``: the app in a web browser, one app process per open page."""
