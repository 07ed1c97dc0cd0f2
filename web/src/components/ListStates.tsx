import type { ReactNode } from 'react';
import { Button, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';

/** Grey rows standing in for a list while it loads. */
export function LoadingRows({ height, rows = 3, testId }: { height: number; rows?: number; testId?: string }) {
  return (
    <Stack gap="sm" aria-busy="true" data-testid={testId}>
      {Array.from({ length: rows }, (_, row) => (
        <Skeleton key={row} height={height} radius="md" />
      ))}
    </Stack>
  );
}

/** A list with nothing in it: an icon, what that means and, where it helps, what to do. */
export function EmptyState({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" py="xl" ta="center">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
        {icon}
      </ThemeIcon>
      <Text fw={600}>{title}</Text>
      {children ? (
        <Text fz="sm" c="dimmed" maw={420}>
          {children}
        </Text>
      ) : null}
    </Stack>
  );
}

/** What "show more" needs of an infinite query. */
interface NextPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** The button under a keyset-paged list that loads its next page; nothing when there is none. */
export function LoadMore({ pages, label }: { pages: NextPages; label: string }) {
  if (!pages.hasNextPage) return null;
  return (
    <Group justify="center" mt="md">
      <Button variant="default" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
        {label}
      </Button>
    </Group>
  );
}
