"""The Textual app: the mode menu, a game screen per kind of controls, dialogs, keys, language."""
