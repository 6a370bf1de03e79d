"""Texts written for the real-model page: a long log excerpt, and log messages with their rewordings.

``LONG_LOG`` is a realistic excerpt of an incident's logs, long enough (over 100 WordPieces) that a
uniform attention row puts well under 10% on any one token, as in Clark et al.'s 128-token inputs.

``PAIRS`` holds (log message, rewording) pairs for a retrieval task: each message should find its
own rewording among all rewordings, and each rewording its message. Several messages share a
service or an error type on purpose (three about order-api and the database, two about web-3,
two deploys, two backups), so that retrieval needs more than one matching word.

>>> len(PAIRS) >= 30, len({m for m, _ in PAIRS}) == len(PAIRS)
(True, True)
"""

from __future__ import annotations

__all__ = ["LONG_LOG", "PAIRS"]

LONG_LOG = (
    "2024-01-15 10:30:41 WARN [order-api] db pool usage 92% (46/50 connections) "
    "2024-01-15 10:30:44 ERROR [order-api] connection_timeout after 3000ms host=db-primary:5432 "
    "2024-01-15 10:30:44 INFO [order-api] retrying request id=7f3a attempt=2/3 "
    "2024-01-15 10:30:47 ERROR [payment-svc] upstream order-api returned 503 "
    "2024-01-15 10:30:52 WARN [db-primary] slow query 4812ms table=orders "
    "2024-01-15 10:31:05 INFO [order-api] connection pool recovered, 12/50 in use"
)

PAIRS = (
    ("order-api: connection to db-primary timed out after 3000 ms",
     "order-api waited three seconds for the primary database and gave up"),
    ("order-api: connection to db-primary refused",
     "the primary database rejected order-api's attempt to connect"),
    ("db connection pool exhausted (50/50 in use) on order-api",
     "order-api has no free database connections left; all fifty are busy"),
    ("payment-svc: upstream order-api returned HTTP 503",
     "order-api answered payment requests with service unavailable"),
    ("disk usage on /var/log reached 95% on node web-3",
     "web-3 is almost out of space in its log partition"),
    ("memory usage on node web-3 above 90% for 10 minutes",
     "web-3 has been short of RAM for the last ten minutes"),
    ("pod checkout-7d9f restarted after OOMKilled",
     "the checkout container was killed for using too much memory and came back up"),
    ("pod checkout-7d9f in CrashLoopBackOff",
     "the checkout container keeps crashing right after it starts"),
    ("TLS certificate for api.example.com expires in 7 days",
     "the HTTPS cert of api.example.com runs out next week"),
    ("TLS handshake failed: certificate signed by unknown authority",
     "the client did not trust whoever issued the server's certificate"),
    ("DNS lookup for redis.internal failed: NXDOMAIN",
     "the name redis.internal does not resolve to any address"),
    ("redis cache hit rate dropped to 40%",
     "fewer than half of the lookups are now served from the cache"),
    ("kafka consumer group billing lagging 120000 messages behind",
     "the billing consumers are far behind on their topic"),
    ("kafka broker 2 is offline; partitions under-replicated",
     "one message broker went down and some partitions lost their copies"),
    ("rate limit exceeded for client 10.0.4.17, returning 429",
     "the client at 10.0.4.17 sent too many requests and is being throttled"),
    ("login failed for user admin: invalid password (5th attempt)",
     "someone typed the wrong admin password for the fifth time"),
    ("JWT token expired for session 8c1e; user redirected to login",
     "a session's access token ran out and the user had to sign in again"),
    ("deploy of order-api v2.4.1 started by ci-bot",
     "the CI bot began rolling out version 2.4.1 of order-api"),
    ("deploy of order-api v2.4.1 rolled back after failed health checks",
     "order-api 2.4.1 did not pass its health checks, so the previous version was restored"),
    ("cron job nightly-backup finished in 42 minutes",
     "last night's backup completed, taking about three quarters of an hour"),
    ("cron job nightly-backup failed: s3 bucket access denied",
     "the nightly backup could not write to the storage bucket because permission was refused"),
    ("replication lag on db-replica-2 is 45 seconds",
     "the second database replica is trailing the primary by most of a minute"),
    ("slow query (4.8 s) on table orders: missing index on customer_id",
     "a lookup on the orders table took almost five seconds because customer_id is not indexed"),
    ("deadlock detected between transactions 8812 and 8815",
     "two database transactions were waiting on each other and one was aborted"),
    ("CPU throttling on container search-indexer at 80%",
     "the search indexer is held back by its processor quota most of the time"),
    ("health check /healthz on gateway returned 500",
     "the gateway's liveness endpoint responded with an internal server error"),
    ("load balancer removed web-5 from the pool: 3 failed probes",
     "web-5 stopped answering probes and no longer receives traffic"),
    ("queue email-outbound has 25000 pending jobs",
     "a large backlog of unsent emails is waiting to go out"),
    ("NTP clock skew of 2.3 s detected on node db-primary",
     "the primary database server's clock has drifted by a couple of seconds"),
    ("file descriptor limit reached: too many open files in nginx",
     "nginx cannot open more sockets or files because it hit the per-process cap"),
    ("garbage collection pause of 1.9 s in inventory-svc",
     "inventory-svc froze for almost two seconds while the JVM reclaimed memory"),
    ("config reload failed: invalid YAML at line 42 of alerts.yml",
     "the alert rules file has a syntax error, so the new configuration was not loaded"),
    ("S3 upload of report-2024-01-15.csv succeeded (12 MB)",
     "the daily report file was stored in object storage without problems"),
    ("feature flag new-checkout enabled for 10% of users",
     "one user in ten now gets the new checkout flow"),
)
