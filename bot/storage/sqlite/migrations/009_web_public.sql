-- A server's web pages (issue 30): 1 = anyone may open them; NULL or 0 = only with a link the bot signed.

ALTER TABLE guilds ADD COLUMN web_public INTEGER CHECK (web_public IN (0, 1));
