-- Retention's sweep finds a project's closed sessions through the lists' index, by status and by
-- the time each id begins with (a session closes after it was made): the index of closed
-- sessions by when they closed goes, and with it a row written at every close.
DROP INDEX `sessions_project_completed_idx`;
