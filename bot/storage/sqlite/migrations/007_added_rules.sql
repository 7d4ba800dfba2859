-- A server's default added rules (issue 19); NULL = not added, as before the columns existed.

ALTER TABLE guilds ADD COLUMN fire INTEGER CHECK (fire IN (0, 1));

ALTER TABLE guilds ADD COLUMN scorpion INTEGER CHECK (scorpion IN (0, 1));

ALTER TABLE guilds ADD COLUMN eagle_returns INTEGER CHECK (eagle_returns IN (0, 1));
