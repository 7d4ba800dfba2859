-- A server's board palette (SQLite's version 10): 'high_contrast', or NULL for the standard one.

ALTER TABLE guilds ADD COLUMN palette text CHECK (palette IN ('high_contrast'));
