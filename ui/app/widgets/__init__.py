"""Widgets shared by the app's screens: boards, the top bar, the announcement line."""
