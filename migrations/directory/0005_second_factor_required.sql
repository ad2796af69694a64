-- Owners may require a second factor of every member of a project.
ALTER TABLE `projects` ADD `require_second_factor` integer DEFAULT false NOT NULL;