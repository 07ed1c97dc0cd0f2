import { formatDateTime, formatRelative } from './formatDate.ts';

/** A time as "3 minutes ago", the exact date and time on hover. */
export function RelativeTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}
