-- A connection's row holds the keys it proved (`keys`, JSON as the Worker writes it): a proof
-- writes one row where a connection and its key were two, and erasure deletes one.
-- connection_keys keeps only security keys, whose counters are looked up by fingerprint.
ALTER TABLE `connections` ADD `keys` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
UPDATE `connections` SET `keys` = (
	SELECT json_group_array(json_object(
		'id', k.`id`,
		'publicKeySsh', k.`public_key_ssh`,
		'publicKeyPem', k.`public_key_pem`,
		'publicKeyMd5', k.`public_key_md5`,
		'publicKeySha256', k.`public_key_sha256`,
		'publicKeyAlgorithm', k.`public_key_algorithm`,
		'publicKeyBits', k.`public_key_bits`,
		'comment', k.`comment`,
		'securityKey', json(k.`security_key`),
		'certificate', json(k.`certificate`),
		'createdAt', k.`created_at`
	))
	FROM (SELECT * FROM `connection_keys` ORDER BY `id`) AS k
	WHERE k.`session_id` = `connections`.`session_id` AND k.`connection_id` = `connections`.`id`
);--> statement-breakpoint
DELETE FROM `connection_keys` WHERE `security_key` IS NULL;
