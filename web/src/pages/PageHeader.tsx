import type { ReactNode } from 'react';
import { Text, Title } from '@mantine/core';
import classes from './Pages.module.css';

interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  /** Buttons on the right (under the title on phones). */
  actions?: ReactNode;
}

/** The one <h1> of an inner page, its one-line purpose and its page-wide actions. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <div className={classes.header}>
      <div className={classes.headerText}>
        <Title order={1} className={classes.title}>
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" fz="sm" mt={4}>
            {description}
          </Text>
        ) : null}
      </div>
      {actions ? <div className={classes.actions}>{actions}</div> : null}
    </div>
  );
}

interface SectionProps {
  title: string;
  description?: ReactNode;
  /** Right of the title, e.g. a status badge. */
  aside?: ReactNode;
  children: ReactNode;
  /** Unique on the page: names the heading for aria-labelledby. */
  id: string;
}

/** A card with an <h2>: one topic of a page (profile, sessions, recovery codes, ...). */
export function Section({ title, description, aside, children, id }: SectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section className={classes.section} aria-labelledby={headingId}>
      <div className={classes.sectionHeader}>
        <div className={classes.headerText}>
          <Title order={2} id={headingId} className={classes.sectionTitle}>
            {title}
          </Title>
          {description ? (
            <Text c="dimmed" fz="sm" mt={4}>
              {description}
            </Text>
          ) : null}
        </div>
        {aside ? <div className={classes.aside}>{aside}</div> : null}
      </div>
      {children}
    </section>
  );
}
