"""What every area shares: the clock and the runtime handed to actions, IDs, money in
minor units, the domain's errors, the six countries' rules, and the outbox of events."""
