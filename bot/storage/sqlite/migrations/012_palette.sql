-- A server's board palette (issue 32): 'high_contrast', or NULL for the standard one.

ALTER TABLE guilds ADD COLUMN palette TEXT CHECK (palette IN ('high_contrast'));
