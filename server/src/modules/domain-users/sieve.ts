/**
 * The Sieve script (RFC 5228) of a mailbox's autoresponder: a vacation reply (RFC 5230) at most
 * once per sender per `intervalDays`, within the optional dates (RFC 5260 `currentdate`, the mail
 * server's day). Dovecot runs it at delivery (migration 0020_mail_autoreplies). The texts come from
 * users, so they only ever appear as quoted strings, escaped.
 */
export interface AutoreplyScript {
  subject: string;
  body: string;
  intervalDays: number;
  startsOn: string | null;
  endsOn: string | null;
}

/** A Sieve quoted string: backslash and double quote escaped; line breaks are allowed inside. */
export const sieveString = (text: string): string => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function autoreplyScript(reply: AutoreplyScript): string {
  const conditions: string[] = [];
  for (const [comparator, date] of [
    ['ge', reply.startsOn],
    ['le', reply.endsOn],
  ] as const) {
    if (date === null) continue;
    // Only a plain date reaches here (contracts' schema); checked again since it becomes code.
    if (!DATE.test(date)) throw new Error(`not a date: ${date}`);
    conditions.push(`currentdate :value "${comparator}" "date" "${date}"`);
  }
  const days = Math.min(30, Math.max(1, Math.trunc(reply.intervalDays)));
  // Sieve wants CRLF line ends; a message body in a quoted string keeps its own line breaks.
  const body = reply.body.replaceAll(/\r?\n/g, '\r\n');
  const vacation = `vacation :days ${days} :subject ${sieveString(reply.subject)} ${sieveString(body)};`;
  const requires = conditions.length > 0 ? '["vacation", "date", "relational"]' : '["vacation"]';
  const action = conditions.length > 0 ? `if allof (${conditions.join(', ')}) {\r\n  ${vacation}\r\n}` : vacation;
  return `require ${requires};\r\n${action}\r\n`;
}
