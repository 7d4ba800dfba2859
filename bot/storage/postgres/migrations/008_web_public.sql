-- A server's web pages (SQLite's version 9): true = anyone may open them; NULL or false = only with a signed link.

ALTER TABLE guilds ADD COLUMN web_public boolean;
