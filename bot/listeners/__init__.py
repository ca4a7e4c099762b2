"""Bolt's listeners, a module per kind of request: each parses what Slack sent, calls a service, and posts
what bot/render.py wrote. They import no Slack SDK (tests/test_architecture.py holds it): Bolt hands them
`ack`, `body` and `client` by name, and the responder owns every Slack error."""
