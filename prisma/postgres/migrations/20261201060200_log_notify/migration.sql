-- Every committed change of a session's lastSeq (an append, from any writer) is announced on the channel
-- "plangate_log" as '<sessionId>:<lastSeq>', so instances' live streams hear of other instances' appends.
-- NOTIFY is delivered at commit, in commit order, and only if the transaction commits. A trigger, rather than a
-- statement in each append, costs no round trip and cannot be forgotten by a writer.
CREATE FUNCTION "plangate_notify_log"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('plangate_log', NEW."id" || ':' || NEW."lastSeq");
  RETURN NULL;
END
$$;

CREATE TRIGGER "Session_log_notify"
  AFTER UPDATE OF "lastSeq" ON "Session"
  FOR EACH ROW WHEN (NEW."lastSeq" IS DISTINCT FROM OLD."lastSeq")
  EXECUTE FUNCTION "plangate_notify_log"();
