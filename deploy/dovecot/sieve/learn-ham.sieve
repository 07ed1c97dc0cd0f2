# A message a user moved out of Junk: rspamd learns it as ham, unless it went to the Trash.
require ["vnd.dovecot.pipe", "copy", "imapsieve", "environment", "variables"];
if environment :matches "imap.mailbox" "*" {
  set "mailbox" "${1}";
}
if string "${mailbox}" "Trash" {
  stop;
}
pipe :copy "rspamd-learn" ["ham"];
