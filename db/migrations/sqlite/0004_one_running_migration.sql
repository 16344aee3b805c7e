-- Added by hand before the generated index: a database where two runs were started at the same
-- instant keeps its latest running run; any other becomes interrupted (resumable), as a run whose
-- process stopped, so the index can be built (docs/decisions/011).
UPDATE `migration_runs` SET `state` = 'interrupted', `error` = 'The migration stopped before it finished (its server restarted or lost its connection). Start Migration resumes it from its checkpoints.', `owner` = NULL, `lease_expires_at` = NULL WHERE `state` = 'running' AND `id` <> (SELECT `id` FROM `migration_runs` WHERE `state` = 'running' ORDER BY `started_at` DESC, `id` DESC LIMIT 1);--> statement-breakpoint
CREATE UNIQUE INDEX `migration_runs_one_running` ON `migration_runs` (`state`) WHERE "migration_runs"."state" = 'running';
