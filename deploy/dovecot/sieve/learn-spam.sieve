# A message a user moved or copied into Junk: rspamd learns it as spam (deploy/dovecot/dovecot.conf).
require ["vnd.dovecot.pipe", "copy", "imapsieve"];
pipe :copy "rspamd-learn" ["spam"];
