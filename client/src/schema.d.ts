/**
 * Generated from keyproof's OpenAPI document by `npm run client:generate`; do not edit.
 * `npm test` fails when this file no longer matches the document the Worker serves.
 */
export interface paths {
    "/api/v1/audit-log/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every change to the project, newest first
         * @description Each change by a member in the web app or by an API key — API keys created and revoked, webhooks created, changed and deleted, members invited and removed, the project renamed, its retention changed, its test data deleted, sessions redacted or deleted — with who made it, when and from where. Kept 400 days, and deleted with the project; an erased session's id may stay in it, nothing else of it.
         */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/info/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe the calling API key and its project
         * @description A cheap way to check that a key works and which project it belongs to.
         */
        get: operations["getAuthInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's event log, newest first
         * @description Every event any webhook could receive, for as long as its session is kept (deleting, or erasing after `retention_days`, takes its events): compare with what your receiver saw to reconcile.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/project/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API key's project */
        get: operations["getProject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change how long the project's closed sessions are kept
         * @description Live keys only. Shortening `retention_days` erases the closed sessions now past it within a few minutes; lengthening keeps the ones not yet erased for longer. The project's settings govern its live data too, so a test key (`kp_test_`) reads them but cannot change them (403).
         */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/api/v1/signatures/{connection_identifier}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prove a key with ssh-keygen -Y sign, without SSH
         * @description For users who cannot reach the SSH bridge: the session's `sign_command` signs its `signature_challenge` with `ssh-keygen -Y sign -n keyproof` and posts the armored signature here. No API key: the connection identifier names the session. It counts as a connection that proved the one signing key (`method: "signature"`), with the same rules, events and attempts; `must_confirm` is met by signing. The answer is text for the terminal unless `Accept` asks for JSON. A signature that is malformed, over other data or in another namespace, or a session that accepts no more connections, gets a 4xx with a sentence and is not an attempt. At most 10 requests per minute per session and 60 per client address.
         */
        post: operations["proveWithSignature"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/collect/sessions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List collection sessions, newest first */
        get: operations["listCollectSessions"];
        put?: never;
        /**
         * Create a collection session
         * @description Answers with the `ssh_command` to give the user. Every option may be left out; an empty body makes a single-key, single-connection session that lives an hour.
         */
        post: operations["createCollectSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/collect/sessions/{session_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a collection session with its connections and keys */
        get: operations["getCollectSession"];
        put?: never;
        post?: never;
        /**
         * Delete a collection session with its connections and keys
         * @description Its events and their webhook delivery records are erased with it, and no webhook delivery about it is sent after this answer; a list or event log sent the answer's `keyproof-bookmark` leaves it out at once.
         */
        delete: operations["deleteCollectSession"];
        options?: never;
        head?: never;
        /**
         * Change the options of an open collection session
         * @description Only the fields given change; `null` clears a text field. A connection already in progress keeps the rules it opened with.
         */
        patch: operations["updateCollectSession"];
        trace?: never;
    };
    "/api/v1/ssh/collect/sessions/{session_id}/attestation/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the collection session's result, signed
         * @description A JWT (`EdDSA`, `typ` `keyproof-attestation+jwt`) of the session as it is now: `iss` (this service), `aud` (your project id), `sub` (the session id), `kind`, `status`, `external_id` and every proven key, valid for 10 minutes. Verify it offline with the keys at `/.well-known/jwks.json`; the same claims come back in a `return_url` redirect and in each attempt of the `status_changed` webhook that ends the session. 410 once the session is redacted.
         */
        get: operations["getCollectSessionAttestation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/collect/sessions/{session_id}/complete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a multi-connection collection session
         * @description The session becomes `completed` and accepts no more connections. 409 for a single-connection session (it completes by itself) or one already closed.
         */
        post: operations["completeCollectSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/collect/sessions/{session_id}/redact/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a closed collection session's personal data
         * @description Its public keys, fingerprints, key comments and names, certificates, client addresses and software, `external_id`, `return_url`, `principal`, forge accounts, `ssh_banner` and `ssh_message` are erased from the session, its event log and its webhook delivery records, here and in storage; what is left is its outline: id, kind, status, its keys, connections and attempts counted, timestamps and `redacted_at`. A `redacted` event follows; its attestation answers 410 from then on. A second call answers the same. 409 while the session accepts connections.
         */
        post: operations["redactCollectSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/collect/sessions/{session_id}/webhooks/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a collection session's webhooks */
        get: operations["listCollectSessionWebhooks"];
        put?: never;
        /**
         * Create one of a collection session's webhooks
         * @description The response is the only one that carries the signing `secret` unasked.
         */
        post: operations["createCollectSessionWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/collect/sessions/{session_id}/webhooks/{webhook_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook */
        get: operations["getCollectSessionWebhook"];
        /**
         * Replace a webhook's definition
         * @description Fields left out take their defaults, as when creating.
         */
        put: operations["replaceCollectSessionWebhook"];
        post?: never;
        /** Delete a webhook and its delivery history */
        delete: operations["deleteCollectSessionWebhook"];
        options?: never;
        head?: never;
        /** Change some fields of a webhook */
        patch: operations["updateCollectSessionWebhook"];
        trace?: never;
    };
    "/api/v1/ssh/collect/sessions/{session_id}/webhooks/{webhook_id}/secret/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reveal a webhook's signing secret */
        get: operations["getCollectSessionWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/verify/sessions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List verification sessions, newest first */
        get: operations["listVerifySessions"];
        put?: never;
        /**
         * Create a verification session
         * @description Answers with the `ssh_command` to give the user. `keys` are the public keys the user must prove they hold.
         */
        post: operations["createVerifySession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/verify/sessions/{session_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a verification session with its connections and keys */
        get: operations["getVerifySession"];
        put?: never;
        post?: never;
        /**
         * Delete a verification session with its connections and keys
         * @description Its events and their webhook delivery records are erased with it, and no webhook delivery about it is sent after this answer; a list or event log sent the answer's `keyproof-bookmark` leaves it out at once.
         */
        delete: operations["deleteVerifySession"];
        options?: never;
        head?: never;
        /**
         * Change the options of an open verification session
         * @description Only the fields given change; `null` clears a text field. A connection already in progress keeps the rules it opened with.
         */
        patch: operations["updateVerifySession"];
        trace?: never;
    };
    "/api/v1/ssh/verify/sessions/{session_id}/attestation/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the verification session's result, signed
         * @description A JWT (`EdDSA`, `typ` `keyproof-attestation+jwt`) of the session as it is now: `iss` (this service), `aud` (your project id), `sub` (the session id), `kind`, `status`, `external_id` and every proven key, valid for 10 minutes. Verify it offline with the keys at `/.well-known/jwks.json`; the same claims come back in a `return_url` redirect and in each attempt of the `status_changed` webhook that ends the session. 410 once the session is redacted.
         */
        get: operations["getVerifySessionAttestation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/verify/sessions/{session_id}/complete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a multi-connection verification session
         * @description The session stops accepting connections: `verified` if it was, otherwise `failed`. 409 for a single-connection session or one already closed.
         */
        post: operations["completeVerifySession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/verify/sessions/{session_id}/redact/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a closed verification session's personal data
         * @description Its public keys, fingerprints, key comments and names, certificates, client addresses and software, `external_id`, `return_url`, `principal`, forge accounts, `ssh_banner` and `ssh_message` are erased from the session, its event log and its webhook delivery records, here and in storage; what is left is its outline: id, kind, status, its keys, connections and attempts counted, timestamps and `redacted_at`. A `redacted` event follows; its attestation answers 410 from then on. A second call answers the same. 409 while the session accepts connections.
         */
        post: operations["redactVerifySession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/verify/sessions/{session_id}/webhooks/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a verification session's webhooks */
        get: operations["listVerifySessionWebhooks"];
        put?: never;
        /**
         * Create one of a verification session's webhooks
         * @description The response is the only one that carries the signing `secret` unasked.
         */
        post: operations["createVerifySessionWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh/verify/sessions/{session_id}/webhooks/{webhook_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook */
        get: operations["getVerifySessionWebhook"];
        /**
         * Replace a webhook's definition
         * @description Fields left out take their defaults, as when creating.
         */
        put: operations["replaceVerifySessionWebhook"];
        post?: never;
        /** Delete a webhook and its delivery history */
        delete: operations["deleteVerifySessionWebhook"];
        options?: never;
        head?: never;
        /** Change some fields of a webhook */
        patch: operations["updateVerifySessionWebhook"];
        trace?: never;
    };
    "/api/v1/ssh/verify/sessions/{session_id}/webhooks/{webhook_id}/secret/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reveal a webhook's signing secret */
        get: operations["getVerifySessionWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test_helpers/ssh/collect/sessions/{session_id}/simulate/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Drive a test collection session to an outcome
         * @description Test keys (`kp_test_`) only; a live key gets 404 as for an unknown path. `prove` records a proof as a real `ssh` would (a key made up of `key_type`, the given `public_key`, or a verification session's configured keys), `fail_attempt` a connection that proves nothing counted, `decline` a user answering `n` at the `must_confirm` prompt, `expire` the session's expiry, now. Each runs through the same transitions as the real thing: the same events, webhooks, attestation, proof page and return flow; a closed session refuses with 409, as `ssh` would be refused.
         */
        post: operations["simulateCollectSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test_helpers/ssh/verify/sessions/{session_id}/simulate/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Drive a test verification session to an outcome
         * @description Test keys (`kp_test_`) only; a live key gets 404 as for an unknown path. `prove` records a proof as a real `ssh` would (a key made up of `key_type`, the given `public_key`, or a verification session's configured keys), `fail_attempt` a connection that proves nothing counted, `decline` a user answering `n` at the `must_confirm` prompt, `expire` the session's expiry, now. Each runs through the same transitions as the real thing: the same events, webhooks, attestation, proof page and return flow; a closed session refuses with 409, as `ssh` would be refused.
         */
        post: operations["simulateVerifySession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's webhooks */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create one of the project's webhooks
         * @description The response is the only one that carries the signing `secret` unasked.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Delete a webhook and its delivery history */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /** Change some fields of a webhook */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/deliveries/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List deliveries with every attempt, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/deliveries/{invocation_id}/retry/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an invocation again, with the same `webhook-id`
         * @description Whatever became of it: a failed delivery gets one more attempt, a pending one is sent now.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/secret/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reveal a webhook's signing secret */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/test/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a `ping` event to this webhook */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "collect_session.connection_interrupted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `connection_interrupted` about a collect session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CollectConnectionInterruptedEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "collect_session.key_collected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `key_collected` about a collect session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CollectKeyCollectedEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "collect_session.new_connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `new_connection` about a collect session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CollectNewConnectionEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "collect_session.redacted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `redacted` about a collect session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CollectRedactedEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "collect_session.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `status_changed` about a collect session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CollectStatusChangedEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "verify_session.connection_interrupted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `connection_interrupted` about a verify session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VerifyConnectionInterruptedEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "verify_session.failed_attempt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `failed_attempt` about a verify session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VerifyFailedAttemptEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "verify_session.new_connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `new_connection` about a verify session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VerifyNewConnectionEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "verify_session.redacted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `redacted` about a verify session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VerifyRedactedEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "verify_session.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `status_changed` about a verify session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VerifyStatusChangedEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "verify_session.verified": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `verified` about a verify session
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["VerifyVerifiedEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `ping` about a webhook
         * @description Signed per Standard Webhooks: `webhook-id` (the invocation id), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the webhook's secret).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PingEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery; 410 disables the webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description A session's result, signed by keyproof */
        Attestation: {
            /**
             * Format: date-time
             * @description Its `exp`: 10 minutes after it was signed
             */
            expires_at: string;
            /** @description The JWT (JWS compact): header `alg` EdDSA, `kid` (RFC 7638 thumbprint), `typ` keyproof-attestation+jwt */
            token: string;
        };
        /** @description What an attestation says */
        AttestationClaims: {
            /** @description Your project id; for a test session's, the project id followed by `:test-mode` */
            aud: string;
            exp: number;
            external_id: string | null;
            iat: number;
            /** @description This service's public URL; for a test session's, that URL followed by `/test-mode` */
            iss: string;
            jti: string;
            /** @description Every key proven in the session */
            keys: components["schemas"]["AttestedKey"][];
            /** @enum {string} */
            kind: "collect" | "verify";
            /** @description `false` for a test session's attestation, signed by the test key (its own `kid`): `verifyAttestation` refuses it unless told to accept test mode */
            livemode: boolean;
            /** @enum {string} */
            status: "pending" | "completed" | "verified" | "failed" | "expired";
            /** @description The session id */
            sub: string;
        };
        AttestedKey: {
            certificate: {
                [key: string]: unknown;
            } | null;
            /**
             * @description How the key was proven
             * @enum {string}
             */
            method: "ssh" | "signature";
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            proven_at: string;
            public_key_algorithm: string;
            public_key_sha256: string;
            security_key: {
                [key: string]: unknown;
            } | null;
            /** @description The forge account (`github:alice`) of the configured key it matched; else null */
            source: string | null;
        };
        /** @description One change to the project, with who made it and from where */
        AuditEntry: {
            /**
             * @description What changed: an API key created or revoked, a webhook created, updated or deleted, a member invited or removed, the project renamed, its retention changed, its test data deleted or a second factor required of its members, a session redacted or deleted
             * @enum {string}
             */
            action: "api_key.created" | "api_key.revoked" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "member.invited" | "member.removed" | "project.renamed" | "project.retention_changed" | "project.test_data_deleted" | "project.second_factor_required" | "session.redacted" | "session.deleted";
            /** @description Who made the change */
            actor: {
                /** @description The account's id (`acc_...`) or the API key's (`key_...`) */
                id: string;
                /** @description The account's email, or the API key's prefix */
                label: string;
                /**
                 * @description A member in the web app, or an API key
                 * @enum {string}
                 */
                type: "account" | "api_key";
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /** @description A few settings of the change (a retention, a key's prefix and mode); never a session's data */
            details: {
                [key: string]: string | number | boolean;
            };
            /** @description `aud_...`; sorts by time */
            id: string;
            /** @description The client's address */
            ip_address: string;
            /** @description What it changed: a key's, webhook's, invitation's, member's or session's id */
            target_id: string | null;
            /** @description The client's user agent (up to 256 characters) */
            user_agent: string;
        };
        /** @description The calling API key and its project */
        AuthInfo: {
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the key stops working; null if never
             */
            expired_at: string | null;
            /** @description The API key's id, `key_...` */
            id: string;
            /** @description `true` for a `kp_live_` key; `false` for a `kp_test_` key, which sees only test data */
            livemode: boolean;
            /** @description The API key's name */
            name: string;
            /** @description The project the key belongs to, `prj_...` */
            project_id: string;
            project_name: string;
        };
        /** @description A CA whose user certificates prove a key */
        CertificateAuthority: {
            /** @description `ca_...` */
            id: string;
            /** @description Your name for the CA */
            name: string | null;
            /** @description e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, `sk-ssh-ed25519@openssh.com`; a certificate's certified key type */
            public_key_algorithm: string;
            /** @description `SHA256:...` without padding, as `ssh-keygen -l -E sha256` prints it */
            public_key_sha256: string;
            /** @description `<type> <base64>`, as in authorized_keys */
            public_key_ssh: string;
        };
        CollectConnectionInterruptedEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "collect_session";
            /** @enum {string} */
            event: "connection_interrupted";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                /** @description The connection's id */
                collect_connection_id: string;
                collect_session_connection_identifier: string;
                /** @description Your `external_id` */
                collect_session_external_id: string | null;
                /** @description The session's id */
                collect_session_id: string;
                /**
                 * @description How the connection proved its keys
                 * @enum {string}
                 */
                method: "ssh" | "signature";
                /**
                 * @description Why: `restarting`, the SSH bridge was restarting while the user was asked to confirm; `disconnected`, the bridge stopped answering for the connection (its place lapsed after 45 s)
                 * @enum {string}
                 */
                reason: "restarting" | "disconnected";
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        /** @description A key a connection proved */
        CollectedKey: {
            /** @description The OpenSSH certificate the key was offered in; null for a bare key. The key fields describe the certified key */
            certificate: {
                /** @description The CA key's `SHA256:...` fingerprint */
                ca_public_key_sha256: string;
                /** @description The CA's public key, `<type> <base64>` */
                ca_public_key_ssh: string;
                /** @description e.g. `force-command`, `source-address`, with their values */
                critical_options: {
                    [key: string]: string;
                };
                /** @description e.g. `permit-pty` */
                extensions: string[];
                /**
                 * @description Why it is not valid: `ca_signature`, `host_certificate`, `unknown_critical_option`, `not_yet_valid`, `expired` or `source_address`; null when valid
                 * @enum {string|null}
                 */
                invalid_reason: "ca_signature" | "host_certificate" | "unknown_critical_option" | "not_yet_valid" | "expired" | "source_address" | null;
                /** @description The certificate's key id (`ssh-keygen -I`). Here and in every text field of a certificate, control, invisible-format and bidirectional characters are escaped as OpenSSH's logs write them (`\342\200\256`), and a backslash is doubled */
                key_id: string;
                /** @description The principals it is valid for (`ssh-keygen -n`) */
                principals: string[];
                /** @description The serial number as a decimal string (serials run to 2^64 - 1) */
                serial: string;
                /** @description As sshd would judge it when the key was proven: the CA's signature verifies, it is a user certificate, it carries no critical option sshd does not know, it was within its validity, and the client's address is one its `source-address` allows */
                valid: boolean;
                /**
                 * Format: date-time
                 * @description Valid from; null when always
                 */
                valid_after: string | null;
                /**
                 * Format: date-time
                 * @description Valid until; null when forever
                 */
                valid_before: string | null;
            } | null;
            /** @description The comment of the key text it was given as, if any */
            comment: string | null;
            /**
             * Format: date-time
             * @description When it was proven
             */
            created_at: string;
            /** @description `ck_...` for a collected key, `vk_...` for a configured one */
            id: string;
            /** @description e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, `sk-ssh-ed25519@openssh.com`; a certificate's certified key type */
            public_key_algorithm: string;
            /** @description Key size in bits (256 for Ed25519) */
            public_key_bits: number;
            /** @description `MD5:aa:bb:...`, as `ssh-keygen -l -E md5` prints it */
            public_key_md5: string;
            /** @description SubjectPublicKeyInfo PEM; null for security keys, which PEM cannot express */
            public_key_pem: string | null;
            /** @description `SHA256:...` without padding, as `ssh-keygen -l -E sha256` prints it */
            public_key_sha256: string;
            /** @description `<type> <base64>`, as in authorized_keys */
            public_key_ssh: string;
            /** @description Set for a FIDO security key (`sk-...`), null for other keys. On a configured key not yet proven, only `application` is set */
            security_key: {
                /** @description The FIDO application the key was made for: `ssh:` unless chosen otherwise */
                application: string;
                /** @description The key's signature counter at the proof; 0 when it keeps none */
                counter: number | null;
                /** @description The counter was not above the last one recorded for this key in this project: the key may have been cloned */
                counter_regressed: boolean | null;
                /** @description The key was touched for the proof (always true on a recorded proof) */
                user_present: boolean | null;
                /** @description The key checked a PIN or biometric for the proof */
                user_verified: boolean | null;
            } | null;
        };
        CollectKeyCollectedEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "collect_session";
            /** @enum {string} */
            event: "key_collected";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                /** @description The connection's id */
                collect_connection_id: string;
                collect_session_connection_identifier: string;
                /** @description Your `external_id` */
                collect_session_external_id: string | null;
                /** @description The session's id */
                collect_session_id: string;
                key: {
                    /** @description The OpenSSH certificate the key was offered in; null for a bare key. The key fields describe the certified key */
                    certificate: {
                        /** @description The CA key's `SHA256:...` fingerprint */
                        ca_public_key_sha256: string;
                        /** @description The CA's public key, `<type> <base64>` */
                        ca_public_key_ssh: string;
                        /** @description e.g. `force-command`, `source-address`, with their values */
                        critical_options: {
                            [key: string]: string;
                        };
                        /** @description e.g. `permit-pty` */
                        extensions: string[];
                        /**
                         * @description Why it is not valid: `ca_signature`, `host_certificate`, `unknown_critical_option`, `not_yet_valid`, `expired` or `source_address`; null when valid
                         * @enum {string|null}
                         */
                        invalid_reason: "ca_signature" | "host_certificate" | "unknown_critical_option" | "not_yet_valid" | "expired" | "source_address" | null;
                        /** @description The certificate's key id (`ssh-keygen -I`). Here and in every text field of a certificate, control, invisible-format and bidirectional characters are escaped as OpenSSH's logs write them (`\342\200\256`), and a backslash is doubled */
                        key_id: string;
                        /** @description The principals it is valid for (`ssh-keygen -n`) */
                        principals: string[];
                        /** @description The serial number as a decimal string (serials run to 2^64 - 1) */
                        serial: string;
                        /** @description As sshd would judge it when the key was proven: the CA's signature verifies, it is a user certificate, it carries no critical option sshd does not know, it was within its validity, and the client's address is one its `source-address` allows */
                        valid: boolean;
                        /**
                         * Format: date-time
                         * @description Valid from; null when always
                         */
                        valid_after: string | null;
                        /**
                         * Format: date-time
                         * @description Valid until; null when forever
                         */
                        valid_before: string | null;
                    } | null;
                    /** @description The comment of the key text it was given as, if any */
                    comment: string | null;
                    /** @description `ck_...` for a collected key, `vk_...` for a configured one */
                    id: string;
                    /** @description e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, `sk-ssh-ed25519@openssh.com`; a certificate's certified key type */
                    public_key_algorithm: string;
                    /** @description Key size in bits (256 for Ed25519) */
                    public_key_bits: number;
                    /** @description `MD5:aa:bb:...`, as `ssh-keygen -l -E md5` prints it */
                    public_key_md5: string;
                    /** @description SubjectPublicKeyInfo PEM; null for security keys, which PEM cannot express */
                    public_key_pem: string | null;
                    /** @description `SHA256:...` without padding, as `ssh-keygen -l -E sha256` prints it */
                    public_key_sha256: string;
                    /** @description `<type> <base64>`, as in authorized_keys */
                    public_key_ssh: string;
                    /** @description Set for a FIDO security key (`sk-...`), null for other keys. On a configured key not yet proven, only `application` is set */
                    security_key: {
                        /** @description The FIDO application the key was made for: `ssh:` unless chosen otherwise */
                        application: string;
                        /** @description The key's signature counter at the proof; 0 when it keeps none */
                        counter: number | null;
                        /** @description The counter was not above the last one recorded for this key in this project: the key may have been cloned */
                        counter_regressed: boolean | null;
                        /** @description The key was touched for the proof (always true on a recorded proof) */
                        user_present: boolean | null;
                        /** @description The key checked a PIN or biometric for the proof */
                        user_verified: boolean | null;
                    } | null;
                };
                /**
                 * @description How the connection proved its keys
                 * @enum {string}
                 */
                method: "ssh" | "signature";
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        CollectNewConnectionEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "collect_session";
            /** @enum {string} */
            event: "new_connection";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                client_version: string;
                /** @description The connection's id */
                collect_connection_id: string;
                collect_session_connection_identifier: string;
                /** @description Your `external_id` */
                collect_session_external_id: string | null;
                /** @description The session's id */
                collect_session_id: string;
                ip_address: string;
                /**
                 * @description How the connection proved its keys
                 * @enum {string}
                 */
                method: "ssh" | "signature";
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        CollectRedactedEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "collect_session";
            /** @enum {string} */
            event: "redacted";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                collect_session_connection_identifier: string;
                /** @description Your `external_id` */
                collect_session_external_id: string | null;
                /** @description The session's id */
                collect_session_id: string;
                /**
                 * Format: date-time
                 * @description When it was redacted
                 */
                redacted_at: string;
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        /** @description A collection session */
        CollectSession: {
            /**
             * Format: date-time
             * @description When the session stopped accepting connections
             */
            completed_at: string | null;
            /** @description The SSH username: 26 lowercase letters and digits, 130 random bits */
            connection_identifier: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the session expires if still open
             */
            expired_at: string;
            /** @description Your reference, as given */
            external_id: string | null;
            /** @description `cs_...` or `vs_...` */
            id: string;
            /** @description `false` for a test session (made with a `kp_test_` key) */
            livemode: boolean;
            /** @description Connections are accepted until completed or expired */
            multi_connection: boolean;
            /** @description More than one key is collected or checked per connection */
            multi_key: boolean;
            /** @description The user must press `y` before anything is kept */
            must_confirm: boolean;
            /** @description A page to send the user to instead of building one: the command, the bridge's host key fingerprints, the signature alternative, and the status, live. Public: it shows no `external_id`, key names or other sessions */
            proof_url: string;
            /**
             * Format: date-time
             * @description When its personal data was erased (`POST .../redact/`): keys, fingerprints, addresses and client software read `[redacted]`, and `external_id`, `return_url`, `principal`, key names, comments and certificates are null; null while not redacted
             */
            redacted_at: string | null;
            /** @description Only FIDO security keys count */
            require_security_key: boolean;
            /** @description A security key's proof counts only with a PIN or biometric check */
            require_user_verification: boolean;
            /** @description Where the proof page sends the user when done, with the result; null for none */
            return_url: string | null;
            /** @description The one line such a user runs: signs the challenge with their key and sends it, printing the result */
            sign_command: string;
            /** @description What a user without SSH access signs with `ssh-keygen -Y sign -n keyproof`; a proof that counts uses it up, and a new one is shown while the session accepts connections */
            signature_challenge: string;
            /** @description Where that signature is sent (POST, public: no API key) */
            signature_url: string;
            /** @description Shown before authentication */
            ssh_banner: string | null;
            /** @description The exact command to give the user, e.g. `ssh abc...@ssh.example.com` */
            ssh_command: string;
            /** @description Shown after the result */
            ssh_message: string | null;
            /**
             * @description `pending` while it accepts connections, then `completed` or `expired`
             * @enum {string}
             */
            status: "pending" | "completed" | "expired";
            /**
             * Format: date-time
             * @description Changed by every PATCH, connection and status change
             */
            updated_at: string;
        };
        /**
         * @example {
         *       "external_id": "user-42",
         *       "ssh_banner": "Acme asks you to prove your SSH key.",
         *       "ssh_message": "Thanks, you can close this window."
         *     }
         */
        CollectSessionCreate: {
            /**
             * Format: date-time
             * @description When the session expires (future, at most 30 days ahead). Not with `timeout`
             */
            expired_at?: string;
            /** @description Your own reference for this user or request (up to 255 characters, no control characters); returned as is and usable as a list filter */
            external_id?: string | null;
            /** @description Accept more connections until completed or expired (default false) */
            multi_connection?: boolean;
            /** @description Collect or check more than one key (default false) */
            multi_key?: boolean;
            /** @description The user must press `y` before anything is kept (default false) */
            must_confirm?: boolean;
            /** @description Only FIDO security keys (`ssh-keygen -t ed25519-sk`) count; any other key is refused with a sentence and not recorded (default false) */
            require_security_key?: boolean;
            /** @description A security key's proof counts only if the key checked a PIN or biometric (its user-verified flag; keys made with `-O verify-required`) (default false) */
            require_user_verification?: boolean;
            /**
             * Format: uri
             * @description Where the hosted proof page sends the user once the session is done (with `multi_connection`, once a key is proven), with `keyproof_session_id`, `keyproof_status` and `keyproof_attestation` added to its query; your own query (a `state`) is kept. An absolute `https` URL (`http` only when running locally), up to 2048 characters, without user name or password
             */
            return_url?: string | null;
            /** @description Text the user's SSH client shows before authentication (up to 2048 characters; newlines and tabs allowed, other control characters refused) */
            ssh_banner?: string | null;
            /** @description Text shown on the user's terminal after the result (up to 2048 characters; newlines and tabs allowed, other control characters refused) */
            ssh_message?: string | null;
            /** @description Lifetime in seconds; default 3600. Not with `expired_at` */
            timeout?: number;
            /** @description Webhooks for this session alone, created with it */
            webhooks?: components["schemas"]["WebhookCreate"][];
        } & unknown;
        /** @description A collection session with its connections */
        CollectSessionDetail: {
            /**
             * Format: date-time
             * @description When the session stopped accepting connections
             */
            completed_at: string | null;
            /** @description The SSH username: 26 lowercase letters and digits, 130 random bits */
            connection_identifier: string;
            /** @description Every connection so far, newest first */
            connections: components["schemas"]["Connection"][];
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the session expires if still open
             */
            expired_at: string;
            /** @description Your reference, as given */
            external_id: string | null;
            /** @description `cs_...` or `vs_...` */
            id: string;
            /** @description `false` for a test session (made with a `kp_test_` key) */
            livemode: boolean;
            /** @description Connections are accepted until completed or expired */
            multi_connection: boolean;
            /** @description More than one key is collected or checked per connection */
            multi_key: boolean;
            /** @description The user must press `y` before anything is kept */
            must_confirm: boolean;
            /** @description A page to send the user to instead of building one: the command, the bridge's host key fingerprints, the signature alternative, and the status, live. Public: it shows no `external_id`, key names or other sessions */
            proof_url: string;
            /**
             * Format: date-time
             * @description When its personal data was erased (`POST .../redact/`): keys, fingerprints, addresses and client software read `[redacted]`, and `external_id`, `return_url`, `principal`, key names, comments and certificates are null; null while not redacted
             */
            redacted_at: string | null;
            /** @description Only FIDO security keys count */
            require_security_key: boolean;
            /** @description A security key's proof counts only with a PIN or biometric check */
            require_user_verification: boolean;
            /** @description Where the proof page sends the user when done, with the result; null for none */
            return_url: string | null;
            /** @description The one line such a user runs: signs the challenge with their key and sends it, printing the result */
            sign_command: string;
            /** @description What a user without SSH access signs with `ssh-keygen -Y sign -n keyproof`; a proof that counts uses it up, and a new one is shown while the session accepts connections */
            signature_challenge: string;
            /** @description Where that signature is sent (POST, public: no API key) */
            signature_url: string;
            /** @description Shown before authentication */
            ssh_banner: string | null;
            /** @description The exact command to give the user, e.g. `ssh abc...@ssh.example.com` */
            ssh_command: string;
            /** @description Shown after the result */
            ssh_message: string | null;
            /**
             * @description `pending` while it accepts connections, then `completed` or `expired`
             * @enum {string}
             */
            status: "pending" | "completed" | "expired";
            /**
             * Format: date-time
             * @description Changed by every PATCH, connection and status change
             */
            updated_at: string;
            /** @description This session's own webhooks */
            webhooks: {
                /** @description Each retry waits this many times longer */
                backoff_multiplier: number;
                /**
                 * Format: date-time
                 * @description RFC 3339 UTC timestamp
                 */
                created_at: string;
                /** @description Deliveries are made only while enabled; 410 Gone disables it */
                enabled: boolean;
                /** @description Event types it receives; empty means all */
                events: ("new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping")[];
                /** @description Extra headers sent with each delivery */
                headers: {
                    [key: string]: string;
                };
                /** @description `wh_...` */
                id: string;
                /** @description Seconds before the first retry */
                initial_backoff: number;
                /** @description `false` for a test webhook (made with a `kp_test_` key): it hears only test events, a live one only live events */
                livemode: boolean;
                /**
                 * @description HTTP method of each delivery
                 * @enum {string}
                 */
                method: "post" | "put" | "patch";
                /** @description Retries after the first attempt */
                retries: number;
                /** @description Only in the response that created the webhook */
                secret?: string;
                /** @description The session it belongs to; null for a project webhook (every session's events) */
                session_id: string | null;
                /**
                 * Format: date-time
                 * @description RFC 3339 UTC timestamp
                 */
                updated_at: string;
                /** @description Where deliveries go */
                url: string;
            }[];
        };
        /**
         * @example {
         *       "timeout": 900,
         *       "must_confirm": true
         *     }
         */
        CollectSessionPatch: {
            /**
             * Format: date-time
             * @description When the session expires (future, at most 30 days ahead). Not with `timeout`
             */
            expired_at?: string;
            /** @description Your own reference for this user or request (up to 255 characters, no control characters); returned as is and usable as a list filter */
            external_id?: string | null;
            /** @description Accept more connections until completed or expired (default false) */
            multi_connection?: boolean;
            /** @description Collect or check more than one key (default false) */
            multi_key?: boolean;
            /** @description The user must press `y` before anything is kept (default false) */
            must_confirm?: boolean;
            /** @description Only FIDO security keys (`ssh-keygen -t ed25519-sk`) count; any other key is refused with a sentence and not recorded (default false) */
            require_security_key?: boolean;
            /** @description A security key's proof counts only if the key checked a PIN or biometric (its user-verified flag; keys made with `-O verify-required`) (default false) */
            require_user_verification?: boolean;
            /**
             * Format: uri
             * @description Where the hosted proof page sends the user once the session is done (with `multi_connection`, once a key is proven), with `keyproof_session_id`, `keyproof_status` and `keyproof_attestation` added to its query; your own query (a `state`) is kept. An absolute `https` URL (`http` only when running locally), up to 2048 characters, without user name or password
             */
            return_url?: string | null;
            /** @description Text the user's SSH client shows before authentication (up to 2048 characters; newlines and tabs allowed, other control characters refused) */
            ssh_banner?: string | null;
            /** @description Text shown on the user's terminal after the result (up to 2048 characters; newlines and tabs allowed, other control characters refused) */
            ssh_message?: string | null;
            /** @description Lifetime in seconds; default 3600. Not with `expired_at` */
            timeout?: number;
        } & unknown;
        CollectStatusChangedEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "collect_session";
            /** @enum {string} */
            event: "status_changed";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                /** @description When the change ends the session: its result signed (an attestation, as `GET .../attestation/` gives), signed as this attempt was sent and valid for 10 minutes; null when the service signs none or the session was redacted. Only deliveries carry it: the event log does not */
                attestation?: string | null;
                collect_session_connection_identifier: string;
                /** @description Your `external_id` */
                collect_session_external_id: string | null;
                /** @description The session's id */
                collect_session_id: string;
                /** @enum {string} */
                previous_status: "pending" | "completed" | "verified" | "failed" | "expired";
                /** @enum {string} */
                status: "pending" | "completed" | "verified" | "failed" | "expired";
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        /** @description A key a verification session expects */
        ConfiguredKey: {
            /** @description The OpenSSH certificate the key was offered in; null for a bare key. The key fields describe the certified key */
            certificate: {
                /** @description The CA key's `SHA256:...` fingerprint */
                ca_public_key_sha256: string;
                /** @description The CA's public key, `<type> <base64>` */
                ca_public_key_ssh: string;
                /** @description e.g. `force-command`, `source-address`, with their values */
                critical_options: {
                    [key: string]: string;
                };
                /** @description e.g. `permit-pty` */
                extensions: string[];
                /**
                 * @description Why it is not valid: `ca_signature`, `host_certificate`, `unknown_critical_option`, `not_yet_valid`, `expired` or `source_address`; null when valid
                 * @enum {string|null}
                 */
                invalid_reason: "ca_signature" | "host_certificate" | "unknown_critical_option" | "not_yet_valid" | "expired" | "source_address" | null;
                /** @description The certificate's key id (`ssh-keygen -I`). Here and in every text field of a certificate, control, invisible-format and bidirectional characters are escaped as OpenSSH's logs write them (`\342\200\256`), and a backslash is doubled */
                key_id: string;
                /** @description The principals it is valid for (`ssh-keygen -n`) */
                principals: string[];
                /** @description The serial number as a decimal string (serials run to 2^64 - 1) */
                serial: string;
                /** @description As sshd would judge it when the key was proven: the CA's signature verifies, it is a user certificate, it carries no critical option sshd does not know, it was within its validity, and the client's address is one its `source-address` allows */
                valid: boolean;
                /**
                 * Format: date-time
                 * @description Valid from; null when always
                 */
                valid_after: string | null;
                /**
                 * Format: date-time
                 * @description Valid until; null when forever
                 */
                valid_before: string | null;
            } | null;
            /** @description The comment of the key text it was given as, if any */
            comment: string | null;
            /** @description Your reference for the key */
            external_id: string | null;
            /** @description `ck_...` for a collected key, `vk_...` for a configured one */
            id: string;
            /** @description Your name for the key */
            name: string | null;
            /** @description e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, `sk-ssh-ed25519@openssh.com`; a certificate's certified key type */
            public_key_algorithm: string;
            /** @description Key size in bits (256 for Ed25519) */
            public_key_bits: number;
            /** @description `MD5:aa:bb:...`, as `ssh-keygen -l -E md5` prints it */
            public_key_md5: string;
            /** @description SubjectPublicKeyInfo PEM; null for security keys, which PEM cannot express */
            public_key_pem: string | null;
            /** @description `SHA256:...` without padding, as `ssh-keygen -l -E sha256` prints it */
            public_key_sha256: string;
            /** @description `<type> <base64>`, as in authorized_keys */
            public_key_ssh: string;
            /** @description Set for a FIDO security key (`sk-...`), null for other keys. On a configured key not yet proven, only `application` is set */
            security_key: {
                /** @description The FIDO application the key was made for: `ssh:` unless chosen otherwise */
                application: string;
                /** @description The key's signature counter at the proof; 0 when it keeps none */
                counter: number | null;
                /** @description The counter was not above the last one recorded for this key in this project: the key may have been cloned */
                counter_regressed: boolean | null;
                /** @description The key was touched for the proof (always true on a recorded proof) */
                user_present: boolean | null;
                /** @description The key checked a PIN or biometric for the proof */
                user_verified: boolean | null;
            } | null;
            /** @description The forge account that lists it (`github:alice`), for a key from `keys_from`; null for a key given in `keys` */
            source: string | null;
            /**
             * Format: date-time
             * @description When a connection first proved it
             */
            verified_at: string | null;
        };
        Connection: {
            /** @description The client's SSH identification, e.g. `SSH-2.0-OpenSSH_9.6` (for a signature, its HTTP User-Agent); anything but printable ASCII is escaped as `\xNN` */
            client_version: string;
            /**
             * Format: date-time
             * @description null while the connection is in progress
             */
            closed_at: string | null;
            /** @description Whether the user pressed `y`; null unless the session had `must_confirm` */
            confirmed: boolean | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /** @description `con_...` */
            id: string;
            /** @description The client's address (a trusted load balancer's PROXY header when there is one) */
            ip_address: string;
            /** @description Keys this connection proved and the session kept */
            keys: components["schemas"]["CollectedKey"][];
            /**
             * @description `ssh` through the bridge, or `signature` (`ssh-keygen -Y sign` sent over HTTPS)
             * @enum {string}
             */
            method: "ssh" | "signature";
            /**
             * @description `in_progress`; `collected` or `verified`; `no_key` (nothing proven), `no_match` (no expected key), `declined`; `expired` or `closed` (the session closed meanwhile); `interrupted` (the bridge restarted before the user answered: nothing kept, no attempt counted); `disconnected` (the bridge never reported back)
             * @enum {string}
             */
            outcome: "in_progress" | "collected" | "verified" | "no_match" | "no_key" | "declined" | "expired" | "closed" | "interrupted" | "disconnected";
            /** @description Why keys the client offered did not count, each reason once, e.g. `not_expected`, `certificate_source_address`, `certificate_unknown_option`, `certificate_verify_required`, `not_touched`, `sha1`, `rsa_too_short`. Codes only: keyproof never records a key a session did not ask for */
            refusals: ("malformed" | "unsupported" | "dsa" | "rsa_too_short" | "degenerate" | "invalid" | "private_key" | "sha1" | "algorithm_mismatch" | "security_key_required" | "not_touched" | "user_verification_required" | "certificate_verify_required" | "not_expected" | "untrusted_ca" | "certificate_invalid" | "certificate_unknown_option" | "certificate_not_yet_valid" | "certificate_expired" | "certificate_source_address" | "principal_missing")[];
        };
        /** @description One event for one webhook, with every attempt */
        Delivery: {
            /** @description Every attempt, oldest first */
            attempts: components["schemas"]["DeliveryAttempt"][];
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * @description `new_connection`, `key_collected`, `verified`, `failed_attempt`, `connection_interrupted`, `status_changed`, `redacted` or `ping`
             * @enum {string}
             */
            event: "new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping";
            /** @description The event delivered (`evt_...`) */
            event_id: string;
            /** @description Why a failed or cancelled delivery stopped, in a sentence */
            failure_reason: string | null;
            /** @description The invocation id (`whi_...`), sent as `webhook-id` on every attempt */
            id: string;
            /**
             * Format: date-time
             * @description When the next attempt is due; null once the delivery succeeded or failed
             */
            next_attempt_at: string | null;
            /**
             * @description `pending`, `retrying`, `succeeded`, `failed` or `cancelled` (webhook disabled)
             * @enum {string}
             */
            status: "pending" | "retrying" | "succeeded" | "failed" | "cancelled";
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            updated_at: string;
            webhook_id: string;
        };
        /** @description One attempt of a delivery */
        DeliveryAttempt: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @description Time to the receiver's answer (or the error) */
            duration_ms: number;
            /** @description Why the attempt did not succeed, if it did not */
            error: string | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            request_time: string;
            /** @description The first KiB of the response */
            response_body: string | null;
            /** @description The receiver's HTTP status; null if none came */
            status_code: number | null;
        };
        /** @description An entry of the project's event log */
        Event: {
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * @description `collect_session`, `verify_session`, or `webhook` for a test ping
             * @enum {string}
             */
            entity: "collect_session" | "verify_session" | "webhook";
            /** @description `evt_...`; sorts by time */
            id: string;
            /** @description `false` for test data (made with a `kp_test_` key) */
            livemode: boolean;
            /** @description The event's payload, as webhooks deliver it (docs/webhooks.md) */
            payload: {
                [key: string]: unknown;
            };
            /** @description The session it is about; null for a ping */
            session_id: string | null;
            /**
             * @description `new_connection`, `key_collected`, `verified`, `failed_attempt`, `connection_interrupted`, `status_changed`, `redacted` or `ping`
             * @enum {string}
             */
            type: "new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping";
        };
        KeyNotCounted: {
            /** @description What went wrong, in a sentence */
            detail: string;
            /** @description Each field that can be named */
            errors?: {
                /** @description Where the problem is: `body.keys[0].public_key`, `query.limit`, `path.session_id` */
                location: string;
                /** @description What is wrong there */
                message: string;
                /** @description The value given, when it is short enough to repeat */
                value?: unknown;
            }[];
            /** @description The request path */
            instance: string;
            /** @description Quote it when asking about this request */
            request_id: string;
            result: components["schemas"]["SignatureResult"];
            /** @description The HTTP status */
            status: number;
            /** @description The HTTP status text */
            title: string;
            /** @description `/docs#problem-<kind>`: where this kind of problem is described */
            type: string;
        };
        PingEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "webhook";
            /** @enum {string} */
            event: "ping";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                message: string;
                webhook_id: string;
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        /** @description RFC 9457 problem details (application/problem+json) */
        Problem: {
            /** @description What went wrong, in a sentence */
            detail: string;
            /** @description Each field that can be named */
            errors?: {
                /** @description Where the problem is: `body.keys[0].public_key`, `query.limit`, `path.session_id` */
                location: string;
                /** @description What is wrong there */
                message: string;
                /** @description The value given, when it is short enough to repeat */
                value?: unknown;
            }[];
            /** @description The request path */
            instance: string;
            /** @description Quote it when asking about this request */
            request_id: string;
            /** @description The HTTP status */
            status: number;
            /** @description The HTTP status text */
            title: string;
            /** @description `/docs#problem-<kind>`: where this kind of problem is described */
            type: string;
        };
        /** @description The project the API key belongs to */
        Project: {
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /** @description `prj_...` */
            id: string;
            name: string;
            /** @description Days a closed session is kept, counted from when it stopped accepting connections; then it is erased everywhere, its events and deliveries with it. 1 … 3650, default 30. A change applies to sessions already closed. */
            retention_days: number;
        };
        /** @description Only the fields given change */
        ProjectPatch: {
            /** @description Days a closed session is kept, counted from when it stopped accepting connections; then it is erased everywhere, its events and deliveries with it. 1 … 3650, default 30. A change applies to sessions already closed. */
            retention_days?: number;
        };
        SignatureResult: {
            /** @description Once the user is done and the session has a `return_url`: its proof page, where the browser that watched the proof continues (the return URL and the result are never given here); else null */
            continue_url: string | null;
            failed_attempts: number;
            /** @description The key that counted, if it did */
            keys: {
                algorithm: string;
                bits: number;
                /** @description Proven through a certificate */
                certified: boolean;
                /** @description Counted for the first time in this session */
                new: boolean;
                /** @description The key's SHA-256 fingerprint */
                sha256: string;
            }[];
            max_attempts: number;
            /** @description What the text answer says */
            message: string;
            /**
             * @description `collected`, `verified`, `no_match` (a failed attempt) or `no_key`
             * @enum {string}
             */
            outcome: "collected" | "verified" | "no_match" | "no_key" | "declined" | "expired" | "closed" | "interrupted";
            remaining_keys: number;
            /** @enum {string} */
            session_status: "pending" | "completed" | "verified" | "failed" | "expired";
        };
        /**
         * @description What to make happen to a test session, through the same transitions as the real thing
         * @example {
         *       "action": "prove",
         *       "key_type": "ssh-ed25519"
         *     }
         */
        SimulateRequest: {
            /** @enum {string} */
            action: "prove";
            /**
             * @description Prove a new key of this type, made up for the occasion (its private half is never kept). Default: `ssh-ed25519` for a collection session, the configured keys for a verification session
             * @enum {string}
             */
            key_type?: "ssh-ed25519" | "ecdsa-sha2-nistp256" | "ssh-rsa" | "sk-ssh-ed25519@openssh.com";
            /** @description Prove this key instead: a verification session's configured key verifies, any other is a failed attempt */
            public_key?: string;
        } | {
            /**
             * @description A connection that proves no key the session counts
             * @enum {string}
             */
            action: "fail_attempt";
        } | {
            /**
             * @description A user answering `n` at the `must_confirm` prompt (such sessions only)
             * @enum {string}
             */
            action: "decline";
        } | {
            /**
             * @description The session's expiry, now, as its alarm runs it
             * @enum {string}
             */
            action: "expire";
        };
        VerifyConnectionInterruptedEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "verify_session";
            /** @enum {string} */
            event: "connection_interrupted";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                /**
                 * @description How the connection proved its keys
                 * @enum {string}
                 */
                method: "ssh" | "signature";
                /**
                 * @description Why: `restarting`, the SSH bridge was restarting while the user was asked to confirm; `disconnected`, the bridge stopped answering for the connection (its place lapsed after 45 s)
                 * @enum {string}
                 */
                reason: "restarting" | "disconnected";
                /** @description The connection's id */
                verify_connection_id: string;
                verify_session_connection_identifier: string;
                /** @description Your `external_id` */
                verify_session_external_id: string | null;
                /** @description The session's id */
                verify_session_id: string;
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        VerifyFailedAttemptEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "verify_session";
            /** @enum {string} */
            event: "failed_attempt";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                failed_attempts: number;
                max_attempts: number;
                /**
                 * @description How the connection proved its keys
                 * @enum {string}
                 */
                method: "ssh" | "signature";
                /** @description `no_key`, `no_match` or `declined` */
                outcome: string;
                /** @description The connection's id */
                verify_connection_id: string;
                verify_session_connection_identifier: string;
                /** @description Your `external_id` */
                verify_session_external_id: string | null;
                /** @description The session's id */
                verify_session_id: string;
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        VerifyNewConnectionEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "verify_session";
            /** @enum {string} */
            event: "new_connection";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                client_version: string;
                ip_address: string;
                /**
                 * @description How the connection proved its keys
                 * @enum {string}
                 */
                method: "ssh" | "signature";
                /** @description The connection's id */
                verify_connection_id: string;
                verify_session_connection_identifier: string;
                /** @description Your `external_id` */
                verify_session_external_id: string | null;
                /** @description The session's id */
                verify_session_id: string;
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        VerifyRedactedEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "verify_session";
            /** @enum {string} */
            event: "redacted";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                /**
                 * Format: date-time
                 * @description When it was redacted
                 */
                redacted_at: string;
                verify_session_connection_identifier: string;
                /** @description Your `external_id` */
                verify_session_external_id: string | null;
                /** @description The session's id */
                verify_session_id: string;
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        /** @description A verification session */
        VerifySession: {
            /** @description The CAs whose certificates prove a key, in the order given */
            certificate_authorities: components["schemas"]["CertificateAuthority"][];
            /**
             * Format: date-time
             * @description When a connection first proved a key with a certificate from one of them
             */
            certificate_verified_at: string | null;
            /**
             * Format: date-time
             * @description When the session stopped accepting connections
             */
            completed_at: string | null;
            /** @description The SSH username: 26 lowercase letters and digits, 130 random bits */
            connection_identifier: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the session expires if still open
             */
            expired_at: string;
            /** @description Your reference, as given */
            external_id: string | null;
            /** @description Connections so far that proved no configured key */
            failed_attempts: number;
            /** @description `cs_...` or `vs_...` */
            id: string;
            /** @description The keys to prove, in the order given */
            keys: components["schemas"]["ConfiguredKey"][];
            /** @description `false` for a test session (made with a `kp_test_` key) */
            livemode: boolean;
            /** @description Every configured key must be proven */
            match_all_keys: boolean;
            /** @description Failed connections allowed before the session fails */
            max_attempts: number;
            /** @description Connections are accepted until completed or expired */
            multi_connection: boolean;
            /** @description More than one key is collected or checked per connection */
            multi_key: boolean;
            /** @description The user must press `y` before anything is kept */
            must_confirm: boolean;
            /** @description The principal their certificates must list */
            principal: string | null;
            /** @description A page to send the user to instead of building one: the command, the bridge's host key fingerprints, the signature alternative, and the status, live. Public: it shows no `external_id`, key names or other sessions */
            proof_url: string;
            /**
             * Format: date-time
             * @description When its personal data was erased (`POST .../redact/`): keys, fingerprints, addresses and client software read `[redacted]`, and `external_id`, `return_url`, `principal`, key names, comments and certificates are null; null while not redacted
             */
            redacted_at: string | null;
            /** @description Only FIDO security keys count */
            require_security_key: boolean;
            /** @description A security key's proof counts only with a PIN or biometric check */
            require_user_verification: boolean;
            /** @description Where the proof page sends the user when done, with the result; null for none */
            return_url: string | null;
            /** @description The one line such a user runs: signs the challenge with their key and sends it, printing the result */
            sign_command: string;
            /** @description What a user without SSH access signs with `ssh-keygen -Y sign -n keyproof`; a proof that counts uses it up, and a new one is shown while the session accepts connections */
            signature_challenge: string;
            /** @description Where that signature is sent (POST, public: no API key) */
            signature_url: string;
            /** @description Shown before authentication */
            ssh_banner: string | null;
            /** @description The exact command to give the user, e.g. `ssh abc...@ssh.example.com` */
            ssh_command: string;
            /** @description Shown after the result */
            ssh_message: string | null;
            /**
             * @description `pending` while it accepts connections, then `verified`, `failed` or `expired`
             * @enum {string}
             */
            status: "pending" | "verified" | "failed" | "expired";
            /**
             * Format: date-time
             * @description Changed by every PATCH, connection and status change
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the session became `verified`
             */
            verified_at: string | null;
        };
        /**
         * @description `timeout` and `expired_at` are alternatives: give one at most; at least one of `keys`, `keys_from` and `certificate_authorities` is not empty; `principal` needs `certificate_authorities`.
         * @example {
         *       "external_id": "user-42",
         *       "keys": [
         *         {
         *           "name": "laptop",
         *           "public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBrdIDVv73+l3FTU30IyNXJPZOlmJyJuGYz8C39JZsyb you@laptop"
         *         }
         *       ],
         *       "max_attempts": 3
         *     }
         */
        VerifySessionCreate: {
            /**
             * @description Up to 10 CAs: a login with a valid user certificate from one of them (listing `principal`, when given) proves an expected key. With `match_all_keys` they count as one more key to prove
             * @default []
             */
            certificate_authorities?: {
                /** @description Your name for the CA (no control characters) */
                name?: string;
                /** @description The CA's public key (as in sshd's TrustedUserCAKeys), in any format `public_key` accepts */
                public_key: string;
            }[];
            /**
             * Format: date-time
             * @description When the session expires (future, at most 30 days ahead). Not with `timeout`
             */
            expired_at?: string;
            /** @description Your own reference for this user or request (up to 255 characters, no control characters); returned as is and usable as a list filter */
            external_id?: string | null;
            /**
             * @description The keys the user must prove they hold, up to 50; each at most once. May be empty when `certificate_authorities` is given
             * @default []
             */
            keys?: {
                /** @description Your reference for the key (no control characters) */
                external_id?: string;
                /** @description Your name for the key (no control characters) */
                name?: string;
                /** @description An OpenSSH authorized_keys line, an RFC 4716 block, or a PEM public key (SPKI, or PKCS#1 for RSA). Ed25519, ECDSA P-256/384/521, RSA of 2048 bits or more, and FIDO security keys (`sk-ssh-ed25519@openssh.com`, `sk-ecdsa-sha2-nistp256@openssh.com`; not PEM) */
                public_key: string;
            }[];
            /** @description Up to 5 accounts on code forges (`github:alice`, `gitlab:bob`, `codeberg:carol`, or a forge this service adds with FORGES): the keys each lists at `<forge>/<username>.keys` become configured keys with their `source`, fetched once at creation. Keys keyproof refuses are skipped and listed in `skipped_keys`. With `keys`, at most 50 keys in all */
            keys_from?: string[];
            /** @description Every configured key must be proven, not just one (default false) */
            match_all_keys?: boolean;
            /** @description Failed connections before the session fails (default 1) */
            max_attempts?: number;
            /** @description Accept more connections until completed or expired (default false) */
            multi_connection?: boolean;
            /** @description Collect or check more than one key (default false) */
            multi_key?: boolean;
            /** @description The user must press `y` before anything is kept (default false) */
            must_confirm?: boolean;
            /** @description A principal that certificates from `certificate_authorities` must list (like a username on sshd) */
            principal?: string;
            /** @description Only FIDO security keys (`ssh-keygen -t ed25519-sk`) count; any other key is refused with a sentence and not recorded (default false) */
            require_security_key?: boolean;
            /** @description A security key's proof counts only if the key checked a PIN or biometric (its user-verified flag; keys made with `-O verify-required`) (default false) */
            require_user_verification?: boolean;
            /**
             * Format: uri
             * @description Where the hosted proof page sends the user once the session is done (with `multi_connection`, once a key is proven), with `keyproof_session_id`, `keyproof_status` and `keyproof_attestation` added to its query; your own query (a `state`) is kept. An absolute `https` URL (`http` only when running locally), up to 2048 characters, without user name or password
             */
            return_url?: string | null;
            /** @description Text the user's SSH client shows before authentication (up to 2048 characters; newlines and tabs allowed, other control characters refused) */
            ssh_banner?: string | null;
            /** @description Text shown on the user's terminal after the result (up to 2048 characters; newlines and tabs allowed, other control characters refused) */
            ssh_message?: string | null;
            /** @description Lifetime in seconds; default 3600. Not with `expired_at` */
            timeout?: number;
            /** @description Webhooks for this session alone, created with it */
            webhooks?: components["schemas"]["WebhookCreate"][];
        } & (unknown & ({
            keys: unknown;
        } | {
            keys_from: unknown;
        } | {
            certificate_authorities: unknown;
        }));
        /** @description A verification session with its connections */
        VerifySessionDetail: {
            /** @description The CAs whose certificates prove a key, in the order given */
            certificate_authorities: components["schemas"]["CertificateAuthority"][];
            /**
             * Format: date-time
             * @description When a connection first proved a key with a certificate from one of them
             */
            certificate_verified_at: string | null;
            /**
             * Format: date-time
             * @description When the session stopped accepting connections
             */
            completed_at: string | null;
            /** @description The SSH username: 26 lowercase letters and digits, 130 random bits */
            connection_identifier: string;
            /** @description Every connection so far, newest first */
            connections: components["schemas"]["Connection"][];
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the session expires if still open
             */
            expired_at: string;
            /** @description Your reference, as given */
            external_id: string | null;
            /** @description Connections so far that proved no configured key */
            failed_attempts: number;
            /** @description `cs_...` or `vs_...` */
            id: string;
            /** @description The keys to prove, in the order given */
            keys: components["schemas"]["ConfiguredKey"][];
            /** @description `false` for a test session (made with a `kp_test_` key) */
            livemode: boolean;
            /** @description Every configured key must be proven */
            match_all_keys: boolean;
            /** @description Failed connections allowed before the session fails */
            max_attempts: number;
            /** @description Connections are accepted until completed or expired */
            multi_connection: boolean;
            /** @description More than one key is collected or checked per connection */
            multi_key: boolean;
            /** @description The user must press `y` before anything is kept */
            must_confirm: boolean;
            /** @description The principal their certificates must list */
            principal: string | null;
            /** @description A page to send the user to instead of building one: the command, the bridge's host key fingerprints, the signature alternative, and the status, live. Public: it shows no `external_id`, key names or other sessions */
            proof_url: string;
            /**
             * Format: date-time
             * @description When its personal data was erased (`POST .../redact/`): keys, fingerprints, addresses and client software read `[redacted]`, and `external_id`, `return_url`, `principal`, key names, comments and certificates are null; null while not redacted
             */
            redacted_at: string | null;
            /** @description Only FIDO security keys count */
            require_security_key: boolean;
            /** @description A security key's proof counts only with a PIN or biometric check */
            require_user_verification: boolean;
            /** @description Where the proof page sends the user when done, with the result; null for none */
            return_url: string | null;
            /** @description The one line such a user runs: signs the challenge with their key and sends it, printing the result */
            sign_command: string;
            /** @description What a user without SSH access signs with `ssh-keygen -Y sign -n keyproof`; a proof that counts uses it up, and a new one is shown while the session accepts connections */
            signature_challenge: string;
            /** @description Where that signature is sent (POST, public: no API key) */
            signature_url: string;
            /** @description Only with `skipped_keys`: how many keys were skipped in all */
            skipped_count?: number;
            /** @description Only in the response that created the session: the first 20 keys the `keys_from` accounts list that were not added (DSA, short RSA, degenerate, already given). A private key an account lists by mistake is one entry that shows none of it */
            skipped_keys?: {
                /** @description The key as the account lists it */
                public_key: string;
                /** @description Why keyproof did not add it */
                reason: string;
                /** @description The account that lists it, e.g. `github:alice` */
                source: string;
            }[];
            /** @description Shown before authentication */
            ssh_banner: string | null;
            /** @description The exact command to give the user, e.g. `ssh abc...@ssh.example.com` */
            ssh_command: string;
            /** @description Shown after the result */
            ssh_message: string | null;
            /**
             * @description `pending` while it accepts connections, then `verified`, `failed` or `expired`
             * @enum {string}
             */
            status: "pending" | "verified" | "failed" | "expired";
            /**
             * Format: date-time
             * @description Changed by every PATCH, connection and status change
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the session became `verified`
             */
            verified_at: string | null;
            /** @description This session's own webhooks */
            webhooks: {
                /** @description Each retry waits this many times longer */
                backoff_multiplier: number;
                /**
                 * Format: date-time
                 * @description RFC 3339 UTC timestamp
                 */
                created_at: string;
                /** @description Deliveries are made only while enabled; 410 Gone disables it */
                enabled: boolean;
                /** @description Event types it receives; empty means all */
                events: ("new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping")[];
                /** @description Extra headers sent with each delivery */
                headers: {
                    [key: string]: string;
                };
                /** @description `wh_...` */
                id: string;
                /** @description Seconds before the first retry */
                initial_backoff: number;
                /** @description `false` for a test webhook (made with a `kp_test_` key): it hears only test events, a live one only live events */
                livemode: boolean;
                /**
                 * @description HTTP method of each delivery
                 * @enum {string}
                 */
                method: "post" | "put" | "patch";
                /** @description Retries after the first attempt */
                retries: number;
                /** @description Only in the response that created the webhook */
                secret?: string;
                /** @description The session it belongs to; null for a project webhook (every session's events) */
                session_id: string | null;
                /**
                 * Format: date-time
                 * @description RFC 3339 UTC timestamp
                 */
                updated_at: string;
                /** @description Where deliveries go */
                url: string;
            }[];
        };
        /**
         * @example {
         *       "max_attempts": 5
         *     }
         */
        VerifySessionPatch: {
            /**
             * Format: date-time
             * @description When the session expires (future, at most 30 days ahead). Not with `timeout`
             */
            expired_at?: string;
            /** @description Your own reference for this user or request (up to 255 characters, no control characters); returned as is and usable as a list filter */
            external_id?: string | null;
            /** @description Every configured key must be proven, not just one (default false) */
            match_all_keys?: boolean;
            /** @description Failed connections before the session fails (default 1) */
            max_attempts?: number;
            /** @description Accept more connections until completed or expired (default false) */
            multi_connection?: boolean;
            /** @description Collect or check more than one key (default false) */
            multi_key?: boolean;
            /** @description The user must press `y` before anything is kept (default false) */
            must_confirm?: boolean;
            /** @description Only FIDO security keys (`ssh-keygen -t ed25519-sk`) count; any other key is refused with a sentence and not recorded (default false) */
            require_security_key?: boolean;
            /** @description A security key's proof counts only if the key checked a PIN or biometric (its user-verified flag; keys made with `-O verify-required`) (default false) */
            require_user_verification?: boolean;
            /**
             * Format: uri
             * @description Where the hosted proof page sends the user once the session is done (with `multi_connection`, once a key is proven), with `keyproof_session_id`, `keyproof_status` and `keyproof_attestation` added to its query; your own query (a `state`) is kept. An absolute `https` URL (`http` only when running locally), up to 2048 characters, without user name or password
             */
            return_url?: string | null;
            /** @description Text the user's SSH client shows before authentication (up to 2048 characters; newlines and tabs allowed, other control characters refused) */
            ssh_banner?: string | null;
            /** @description Text shown on the user's terminal after the result (up to 2048 characters; newlines and tabs allowed, other control characters refused) */
            ssh_message?: string | null;
            /** @description Lifetime in seconds; default 3600. Not with `expired_at` */
            timeout?: number;
        } & unknown;
        VerifyStatusChangedEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "verify_session";
            /** @enum {string} */
            event: "status_changed";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                /** @description When the change ends the session: its result signed (an attestation, as `GET .../attestation/` gives), signed as this attempt was sent and valid for 10 minutes; null when the service signs none or the session was redacted. Only deliveries carry it: the event log does not */
                attestation?: string | null;
                /** @enum {string} */
                previous_status: "pending" | "completed" | "verified" | "failed" | "expired";
                /** @enum {string} */
                status: "pending" | "completed" | "verified" | "failed" | "expired";
                verify_session_connection_identifier: string;
                /** @description Your `external_id` */
                verify_session_external_id: string | null;
                /** @description The session's id */
                verify_session_id: string;
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        VerifyVerifiedEvent: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @enum {string} */
            entity: "verify_session";
            /** @enum {string} */
            event: "verified";
            event_id: string;
            /** @description The session's id (the webhook's, for `ping`) */
            id: string;
            /** @description `false` for an event about test data, sent only to test webhooks */
            livemode: boolean;
            payload: {
                /** @description The keys that matched */
                keys: {
                    /** @description The OpenSSH certificate the key was offered in; null for a bare key. The key fields describe the certified key */
                    certificate: {
                        /** @description The CA key's `SHA256:...` fingerprint */
                        ca_public_key_sha256: string;
                        /** @description The CA's public key, `<type> <base64>` */
                        ca_public_key_ssh: string;
                        /** @description e.g. `force-command`, `source-address`, with their values */
                        critical_options: {
                            [key: string]: string;
                        };
                        /** @description e.g. `permit-pty` */
                        extensions: string[];
                        /**
                         * @description Why it is not valid: `ca_signature`, `host_certificate`, `unknown_critical_option`, `not_yet_valid`, `expired` or `source_address`; null when valid
                         * @enum {string|null}
                         */
                        invalid_reason: "ca_signature" | "host_certificate" | "unknown_critical_option" | "not_yet_valid" | "expired" | "source_address" | null;
                        /** @description The certificate's key id (`ssh-keygen -I`). Here and in every text field of a certificate, control, invisible-format and bidirectional characters are escaped as OpenSSH's logs write them (`\342\200\256`), and a backslash is doubled */
                        key_id: string;
                        /** @description The principals it is valid for (`ssh-keygen -n`) */
                        principals: string[];
                        /** @description The serial number as a decimal string (serials run to 2^64 - 1) */
                        serial: string;
                        /** @description As sshd would judge it when the key was proven: the CA's signature verifies, it is a user certificate, it carries no critical option sshd does not know, it was within its validity, and the client's address is one its `source-address` allows */
                        valid: boolean;
                        /**
                         * Format: date-time
                         * @description Valid from; null when always
                         */
                        valid_after: string | null;
                        /**
                         * Format: date-time
                         * @description Valid until; null when forever
                         */
                        valid_before: string | null;
                    } | null;
                    /** @description The comment of the key text it was given as, if any */
                    comment: string | null;
                    /** @description `ck_...` for a collected key, `vk_...` for a configured one */
                    id: string;
                    /** @description e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, `sk-ssh-ed25519@openssh.com`; a certificate's certified key type */
                    public_key_algorithm: string;
                    /** @description Key size in bits (256 for Ed25519) */
                    public_key_bits: number;
                    /** @description `MD5:aa:bb:...`, as `ssh-keygen -l -E md5` prints it */
                    public_key_md5: string;
                    /** @description SubjectPublicKeyInfo PEM; null for security keys, which PEM cannot express */
                    public_key_pem: string | null;
                    /** @description `SHA256:...` without padding, as `ssh-keygen -l -E sha256` prints it */
                    public_key_sha256: string;
                    /** @description `<type> <base64>`, as in authorized_keys */
                    public_key_ssh: string;
                    /** @description Set for a FIDO security key (`sk-...`), null for other keys. On a configured key not yet proven, only `application` is set */
                    security_key: {
                        /** @description The FIDO application the key was made for: `ssh:` unless chosen otherwise */
                        application: string;
                        /** @description The key's signature counter at the proof; 0 when it keeps none */
                        counter: number | null;
                        /** @description The counter was not above the last one recorded for this key in this project: the key may have been cloned */
                        counter_regressed: boolean | null;
                        /** @description The key was touched for the proof (always true on a recorded proof) */
                        user_present: boolean | null;
                        /** @description The key checked a PIN or biometric for the proof */
                        user_verified: boolean | null;
                    } | null;
                    /** @description The forge account (`github:alice`) of the configured key it matched */
                    source: string | null;
                }[];
                /**
                 * @description How the connection proved its keys
                 * @enum {string}
                 */
                method: "ssh" | "signature";
                /** @description The connection's id */
                verify_connection_id: string;
                verify_session_connection_identifier: string;
                /** @description Your `external_id` */
                verify_session_external_id: string | null;
                /** @description The session's id */
                verify_session_id: string;
            };
            /**
             * Format: date-time
             * @description When this attempt was sent
             */
            request_time: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            trigger_time: string;
            webhook_id: string;
            /** @description Also the `webhook-id` header; the same on every retry */
            webhook_invocation_id: string;
        };
        /** @description A webhook (its secret is shown only when created) */
        Webhook: {
            /** @description Each retry waits this many times longer */
            backoff_multiplier: number;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /** @description Deliveries are made only while enabled; 410 Gone disables it */
            enabled: boolean;
            /** @description Event types it receives; empty means all */
            events: ("new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping")[];
            /** @description Extra headers sent with each delivery */
            headers: {
                [key: string]: string;
            };
            /** @description `wh_...` */
            id: string;
            /** @description Seconds before the first retry */
            initial_backoff: number;
            /** @description `false` for a test webhook (made with a `kp_test_` key): it hears only test events, a live one only live events */
            livemode: boolean;
            /**
             * @description HTTP method of each delivery
             * @enum {string}
             */
            method: "post" | "put" | "patch";
            /** @description Retries after the first attempt */
            retries: number;
            /** @description The session it belongs to; null for a project webhook (every session's events) */
            session_id: string | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            updated_at: string;
            /** @description Where deliveries go */
            url: string;
        };
        /**
         * @example {
         *       "url": "https://example.com/keyproof",
         *       "events": [
         *         "verified",
         *         "status_changed"
         *       ]
         *     }
         */
        WebhookCreate: {
            /**
             * @description Each retry waits this many times longer than the last (default 2)
             * @default 2
             */
            backoff_multiplier?: number;
            /**
             * @description Deliveries are made only while enabled (default true)
             * @default true
             */
            enabled?: boolean;
            /**
             * @description Event types to receive; empty means all
             * @default []
             */
            events?: ("new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping")[];
            /**
             * @description Extra request headers
             * @default {}
             */
            headers?: {
                [key: string]: string;
            };
            /**
             * @description Seconds before the first retry (default 10)
             * @default 10
             */
            initial_backoff?: number;
            /**
             * @description HTTP method (default post)
             * @default post
             * @enum {string}
             */
            method?: "post" | "put" | "patch";
            /**
             * @description Retries after the first attempt (default 5)
             * @default 5
             */
            retries?: number;
            /**
             * Format: uri
             * @description http or https URL that receives the deliveries
             */
            url: string;
        };
        /** @description One delivery: the envelope and its payload */
        WebhookEvent: components["schemas"]["CollectNewConnectionEvent"] | components["schemas"]["CollectKeyCollectedEvent"] | components["schemas"]["CollectConnectionInterruptedEvent"] | components["schemas"]["CollectStatusChangedEvent"] | components["schemas"]["CollectRedactedEvent"] | components["schemas"]["VerifyNewConnectionEvent"] | components["schemas"]["VerifyVerifiedEvent"] | components["schemas"]["VerifyFailedAttemptEvent"] | components["schemas"]["VerifyConnectionInterruptedEvent"] | components["schemas"]["VerifyStatusChangedEvent"] | components["schemas"]["VerifyRedactedEvent"] | components["schemas"]["PingEvent"];
        /**
         * @example {
         *       "enabled": false
         *     }
         */
        WebhookPatch: {
            /** @description Each retry waits this many times longer than the last (default 2) */
            backoff_multiplier?: number;
            /** @description Deliveries are made only while enabled (default true) */
            enabled?: boolean;
            /** @description Event types to receive; empty means all */
            events?: ("new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping")[];
            /** @description Extra request headers */
            headers?: {
                [key: string]: string;
            };
            /** @description Seconds before the first retry (default 10) */
            initial_backoff?: number;
            /**
             * @description HTTP method (default post)
             * @enum {string}
             */
            method?: "post" | "put" | "patch";
            /** @description Retries after the first attempt (default 5) */
            retries?: number;
            /**
             * Format: uri
             * @description http or https URL that receives the deliveries
             */
            url?: string;
        };
        /** @description A webhook's signing secret */
        WebhookSecret: {
            /** @description `whsec_...` */
            secret: string;
        };
        /** @description A new webhook, with its signing secret */
        WebhookWithSecret: {
            /** @description Each retry waits this many times longer */
            backoff_multiplier: number;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            created_at: string;
            /** @description Deliveries are made only while enabled; 410 Gone disables it */
            enabled: boolean;
            /** @description Event types it receives; empty means all */
            events: ("new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping")[];
            /** @description Extra headers sent with each delivery */
            headers: {
                [key: string]: string;
            };
            /** @description `wh_...` */
            id: string;
            /** @description Seconds before the first retry */
            initial_backoff: number;
            /** @description `false` for a test webhook (made with a `kp_test_` key): it hears only test events, a live one only live events */
            livemode: boolean;
            /**
             * @description HTTP method of each delivery
             * @enum {string}
             */
            method: "post" | "put" | "patch";
            /** @description Retries after the first attempt */
            retries: number;
            /** @description `whsec_...`: verifies the Standard Webhooks signature */
            secret: string;
            /** @description The session it belongs to; null for a project webhook (every session's events) */
            session_id: string | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC timestamp
             */
            updated_at: string;
            /** @description Where deliveries go */
            url: string;
        };
    };
    responses: never;
    parameters: {
        /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
        Bookmark: string;
        /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description Send it back as `keyproof-bookmark` on your next request to read at least this fresh */
        Bookmark: string;
        /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key */
        IdempotentReplayed: "true";
        /** @description Identifies this request in keyproof's logs; quote it when asking about one */
        RequestId: string;
        /** @description Seconds to wait before trying again */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAuditLog: {
        parameters: {
            query?: {
                /** @description Page size (≥ 1, default 100; any larger value is taken as 100) */
                limit?: number;
                /** @description Items to skip (≥ 0) */
                offset?: number;
            };
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the audit log */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether another page follows */
                        has_more: boolean;
                        /** @description This page, newest first */
                        items: components["schemas"]["AuditEntry"][];
                        /** @description The page size used (requests above 100 are capped) */
                        limit: number;
                        /** @description Items skipped */
                        offset: number;
                        /** @description Items matching the filters, counted up to 1,000 past this page's end (a list with more shows `offset + limit + 1000`) */
                        total: number;
                    };
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAuthInfo: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key and its project */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthInfo"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Page size (≥ 1, default 100; any larger value is taken as 100) */
                limit?: number;
                /** @description Items to skip (≥ 0) */
                offset?: number;
                /** @description Only this session's events */
                session_id?: string;
                /** @description Only events of this type */
                type?: "new_connection" | "key_collected" | "verified" | "failed_attempt" | "status_changed" | "connection_interrupted" | "redacted" | "ping";
            };
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether another page follows */
                        has_more: boolean;
                        /** @description This page, newest first */
                        items: components["schemas"]["Event"][];
                        /** @description The page size used (requests above 100 are capped) */
                        limit: number;
                        /** @description Items skipped */
                        offset: number;
                        /** @description Items matching the filters, counted up to 1,000 past this page's end (a list with more shows `offset + limit + 1000`) */
                        total: number;
                    };
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectPatch"];
            };
        };
        responses: {
            /** @description The project, changed */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A test key (kp_test_) reads the project's settings but cannot change them: they govern live data too. Use a live key (kp_live_) or the project's settings page. */
            403: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    proveWithSignature: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The session's `connection_identifier` */
                connection_identifier: string;
            };
            cookie?: never;
        };
        /** @description What `ssh-keygen -Y sign` prints, from `-----BEGIN SSH SIGNATURE-----` to `-----END SSH SIGNATURE-----`, at most 16 KiB. Sent as text/plain, application/octet-stream, or curl's default x-www-form-urlencoded (read as is). */
        requestBody: {
            content: {
                "application/octet-stream": string;
                "application/x-www-form-urlencoded": unknown;
                "text/plain": string;
            };
        };
        responses: {
            /** @description A connection was recorded; the text or JSON says what it proved */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignatureResult"];
                    "text/plain": string;
                };
            };
            /** @description Not an SSH signature, another namespace, or not over the challenge */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/plain": string;
                };
            };
            /** @description No session has this identifier */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/plain": string;
                };
            };
            /** @description The session accepts no more connections, or the challenge was just used */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/plain": string;
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/plain": string;
                };
            };
            /** @description A body that is not text or bytes */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/plain": string;
                };
            };
            /** @description The signature verified and was recorded as a connection, but its key does not count in this session (not one it expects, refused, or not a security key it requires): a failed attempt where the session counts them. The text says why, as `ssh` would; the problem's `result` holds what a counted proof's JSON holds. */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["KeyNotCounted"];
                    "text/plain": string;
                };
            };
            /** @description Over the per-session or per-address limit; wait for `Retry-After` */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/plain": string;
                };
            };
        };
    };
    listCollectSessions: {
        parameters: {
            query?: {
                /** @description Only sessions with exactly this `external_id` */
                external_id?: string;
                /** @description Page size (≥ 1, default 100; any larger value is taken as 100) */
                limit?: number;
                /** @description Items to skip (≥ 0) */
                offset?: number;
                /** @description Only sessions in this status */
                status?: "pending" | "completed" | "expired";
            };
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of collection sessions */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether another page follows */
                        has_more: boolean;
                        /** @description This page, newest first */
                        items: components["schemas"]["CollectSession"][];
                        /** @description The page size used (requests above 100 are capped) */
                        limit: number;
                        /** @description Items skipped */
                        offset: number;
                        /** @description Items matching the filters, counted up to 1,000 past this page's end (a list with more shows `offset + limit + 1000`) */
                        total: number;
                    };
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCollectSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CollectSessionCreate"];
            };
        };
        responses: {
            /** @description The new collection session */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectSessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCollectSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The collection session, with its connections */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectSessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCollectSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCollectSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectSessionPatch"];
            };
        };
        responses: {
            /** @description The collection session, with its connections */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectSessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The session accepts no more connections, so its options are final */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCollectSessionAttestation: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signed result */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Attestation"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The session was redacted: there is no result left to sign */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Attestations are not set up on this service (its operator sets ATTESTATION_KEYS); or: The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    completeCollectSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The collection session, with its connections */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectSessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A single-connection session (it completes by itself) or one already closed; or: A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    redactCollectSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The redacted collection session */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectSessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The session still accepts connections: complete it or let it expire first; or: A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCollectSessionWebhooks: {
        parameters: {
            query?: {
                /** @description Page size (≥ 1, default 100; any larger value is taken as 100) */
                limit?: number;
                /** @description Items to skip (≥ 0) */
                offset?: number;
            };
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of a collection session's webhooks */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether another page follows */
                        has_more: boolean;
                        /** @description This page, newest first */
                        items: components["schemas"]["Webhook"][];
                        /** @description The page size used (requests above 100 are capped) */
                        limit: number;
                        /** @description Items skipped */
                        offset: number;
                        /** @description Items matching the filters, counted up to 1,000 past this page's end (a list with more shows `offset + limit + 1000`) */
                        total: number;
                    };
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCollectSessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The new webhook, with its secret */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCollectSessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaceCollectSessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The replaced webhook */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCollectSessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCollectSessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPatch"];
            };
        };
        responses: {
            /** @description The changed webhook */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCollectSessionWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `whsec_...` secret */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listVerifySessions: {
        parameters: {
            query?: {
                /** @description Only sessions with exactly this `external_id` */
                external_id?: string;
                /** @description Page size (≥ 1, default 100; any larger value is taken as 100) */
                limit?: number;
                /** @description Items to skip (≥ 0) */
                offset?: number;
                /** @description Only sessions in this status */
                status?: "pending" | "verified" | "failed" | "expired";
            };
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of verification sessions */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether another page follows */
                        has_more: boolean;
                        /** @description This page, newest first */
                        items: components["schemas"]["VerifySession"][];
                        /** @description The page size used (requests above 100 are capped) */
                        limit: number;
                        /** @description Items skipped */
                        offset: number;
                        /** @description Items matching the filters, counted up to 1,000 past this page's end (a list with more shows `offset + limit + 1000`) */
                        total: number;
                    };
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createVerifySession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifySessionCreate"];
            };
        };
        responses: {
            /** @description The new verification session */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifySessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A forge named in `keys_from` could not be reached or failed; nothing was created. Retry after `Retry-After` seconds; or: The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getVerifySession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verification session, with its connections */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifySessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteVerifySession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateVerifySession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifySessionPatch"];
            };
        };
        responses: {
            /** @description The verification session, with its connections */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifySessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The session accepts no more connections, so its options are final */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getVerifySessionAttestation: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signed result */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Attestation"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The session was redacted: there is no result left to sign */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Attestations are not set up on this service (its operator sets ATTESTATION_KEYS); or: The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    completeVerifySession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verification session, with its connections */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifySessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A single-connection session (it completes by itself) or one already closed; or: A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    redactVerifySession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The redacted verification session */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifySessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The session still accepts connections: complete it or let it expire first; or: A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listVerifySessionWebhooks: {
        parameters: {
            query?: {
                /** @description Page size (≥ 1, default 100; any larger value is taken as 100) */
                limit?: number;
                /** @description Items to skip (≥ 0) */
                offset?: number;
            };
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of a verification session's webhooks */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether another page follows */
                        has_more: boolean;
                        /** @description This page, newest first */
                        items: components["schemas"]["Webhook"][];
                        /** @description The page size used (requests above 100 are capped) */
                        limit: number;
                        /** @description Items skipped */
                        offset: number;
                        /** @description Items matching the filters, counted up to 1,000 past this page's end (a list with more shows `offset + limit + 1000`) */
                        total: number;
                    };
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createVerifySessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The new webhook, with its secret */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getVerifySessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaceVerifySessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The replaced webhook */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteVerifySessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateVerifySessionWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPatch"];
            };
        };
        responses: {
            /** @description The changed webhook */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getVerifySessionWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `whsec_...` secret */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    simulateCollectSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulateRequest"];
            };
        };
        responses: {
            /** @description The collection session afterwards, with its connections */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectSessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The session refuses it as it would refuse a real user: closed, busy, or `decline` without `must_confirm`; or: A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    simulateVerifySession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The session's `id` */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulateRequest"];
            };
        };
        responses: {
            /** @description The verification session afterwards, with its connections */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifySessionDetail"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The session refuses it as it would refuse a real user: closed, busy, or `decline` without `must_confirm`; or: A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page size (≥ 1, default 100; any larger value is taken as 100) */
                limit?: number;
                /** @description Items to skip (≥ 0) */
                offset?: number;
            };
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the project's webhooks */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether another page follows */
                        has_more: boolean;
                        /** @description This page, newest first */
                        items: components["schemas"]["Webhook"][];
                        /** @description The page size used (requests above 100 are capped) */
                        limit: number;
                        /** @description Items skipped */
                        offset: number;
                        /** @description Items matching the filters, counted up to 1,000 past this page's end (a list with more shows `offset + limit + 1000`) */
                        total: number;
                    };
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The new webhook, with its secret */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPatch"];
            };
        };
        responses: {
            /** @description The changed webhook */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 64 KiB */
            413: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A body that is not application/json */
            415: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size (≥ 1, default 100; any larger value is taken as 100) */
                limit?: number;
                /** @description Items to skip (≥ 0) */
                offset?: number;
                /** @description Only deliveries in this status */
                status?: "pending" | "retrying" | "succeeded" | "failed" | "cancelled";
            };
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether another page follows */
                        has_more: boolean;
                        /** @description This page, newest first */
                        items: components["schemas"]["Delivery"][];
                        /** @description The page size used (requests above 100 are capped) */
                        limit: number;
                        /** @description Items skipped */
                        offset: number;
                        /** @description Items matching the filters, counted up to 1,000 past this page's end (a list with more shows `offset + limit + 1000`) */
                        total: number;
                    };
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The delivery's `id` (`whi_...`), its `webhook-id` */
                invocation_id: string;
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, queued again */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `whsec_...` secret */
            200: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 visible ASCII characters, unique per request you mean: a retry with the same key and body answers as the first did (`Idempotent-Replayed: true`) for 24 hours, per project */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description The `keyproof-bookmark` of an earlier response, sent back as it was: what this request reads is at least that fresh (read your own writes). A value of this form that no response gave this project is read as asking for the freshest (the primary); one not of this form is a 400 */
                "keyproof-bookmark"?: components["parameters"]["Bookmark"];
            };
            path: {
                /** @description The webhook's `id` */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queued delivery */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each */
            400: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, unknown, revoked or expired API key (the same answer for each) */
            401: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's project (a path id that cannot exist is a 404 too) */
            404: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with the same Idempotency-Key is still running; retry once it has answered */
            409: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used */
            410: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used for a request with another body */
            422: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Project rate limit exceeded; wait for `Retry-After` seconds */
            429: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice) */
            503: {
                headers: {
                    "keyproof-bookmark": components["headers"]["Bookmark"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
