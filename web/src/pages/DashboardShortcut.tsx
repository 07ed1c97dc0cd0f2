import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Text } from '@mantine/core';
import { IconArrowRight, type Icon } from '@tabler/icons-react';
import dashboard from './DashboardPage.module.css';

interface ShortcutProps {
  to: string;
  icon: Icon;
  title: string;
  text: string;
  aside?: ReactNode;
}

/** A card that leads to one area of the panel. */
export function DashboardShortcut({ to, icon: ShortcutIcon, title, text, aside }: ShortcutProps) {
  return (
    <Link to={to} className={dashboard.card}>
      <span className={dashboard.cardTop}>
        <span className={dashboard.cardIcon} aria-hidden>
          <ShortcutIcon size={22} stroke={1.7} />
        </span>
        <IconArrowRight size={18} aria-hidden className={dashboard.cardArrow} />
      </span>
      <span className={dashboard.cardBody}>
        <span className={dashboard.cardTitle}>
          {title}
          {aside}
        </span>
        <Text component="span" fz="sm" c="dimmed">
          {text}
        </Text>
      </span>
    </Link>
  );
}
