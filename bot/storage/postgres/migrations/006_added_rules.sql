-- A server's default added rules (SQLite's version 7); NULL = not added.

ALTER TABLE guilds ADD COLUMN fire boolean;

ALTER TABLE guilds ADD COLUMN scorpion boolean;

ALTER TABLE guilds ADD COLUMN eagle_returns boolean;
