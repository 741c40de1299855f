-- The search index's terms in order, read lazily (fts5vocab 'instance': one row per occurrence, so LIMIT 1 costs
-- a seek, not a document list). A prefix search looks up the few whole terms a word stands for here, so the
-- index can seek each session's rowid range: FTS5 answers a prefix query ("pag"*) by merging the document
-- lists of every matching term first, which costs as much as all the matches, every time it is opened.
CREATE VIRTUAL TABLE "SessionSearchTerms" USING fts5vocab('SessionSearch', 'instance');
