"""The portal: people the article governs register, verify their e-mail, and ask to act for a
person (§ 196-15 PERSON) — an owner, an operator, their representative. Only once staff have
checked their identity and authority against a document (recorded once) does the account reach
that person's records; until then it sees nothing of anyone's."""
