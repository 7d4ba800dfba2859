"""Discord components of the game messages: persistent `DynamicItem`s and the views built from states."""
