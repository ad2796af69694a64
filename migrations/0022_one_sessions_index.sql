-- One index of a project's sessions for the lists, by kind and status (issue #33): each index
-- entry is a row written, and these two cost a row each per session. A list merges the newest of
-- each (kind, status) instead (domain/session-views.ts listSessionRows).
DROP INDEX `sessions_project_kind_idx`;--> statement-breakpoint
DROP INDEX `sessions_project_created_idx`;