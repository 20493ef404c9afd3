"""Who may do what: users and their memberships and roles, companies and their legal
entities, console sign-in, Partner API keys, and the credential a /v1 request presents."""
