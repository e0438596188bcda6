"""The app's screens: the mode menu, the slide game, help, statistics and settings."""
