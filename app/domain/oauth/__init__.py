"""OAuth 2.0 (preview): apps, and the connections their users approve (app/oauth/ is the
Authlib authorization server over these rules)."""
