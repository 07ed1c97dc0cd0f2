import { Link, useLocation } from 'react-router';
import { Collapse, VisuallyHidden } from '@mantine/core';
import { IconChevronRight, IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TRANSITION_MS, type MenuItem } from '@berth/contracts';
import { cx } from '../components/cx.ts';
import { NavItemLabel } from './NavItemLabel.tsx';
import classes from './Sidebar.module.css';

interface NavItemProps {
  item: MenuItem;
  depth: number;
  onToggle: (id: string) => void;
}

/** One entry of the navigation tree: a group that opens, an in-app link or an external link. */
export function NavItem({ item, depth, onToggle }: NavItemProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const itemClass = cx(classes.item, depth > 0 && classes.child);

  if (item.children.length > 0) {
    const groupId = `nav-group-${item.id}`;
    return (
      <li>
        <button
          type="button"
          className={itemClass}
          aria-expanded={item.isOpen}
          aria-controls={groupId}
          data-active={item.isActive || undefined}
          data-testid={`nav-${item.id}`}
          onClick={() => {
            onToggle(item.id);
          }}
        >
          <NavItemLabel item={item} depth={depth} />
          <IconChevronRight size={16} aria-hidden className={classes.chevron} data-open={item.isOpen || undefined} />
        </button>
        <Collapse in={item.isOpen} transitionDuration={TRANSITION_MS[1]}>
          <ul id={groupId} className={classes.children}>
            {item.children.map((child) => (
              <NavItem key={child.id} item={child} depth={depth + 1} onToggle={onToggle} />
            ))}
          </ul>
        </Collapse>
      </li>
    );
  }

  if (item.href) {
    const external = item.target === '_blank';
    return (
      <li>
        <a
          href={item.href}
          target={item.target ?? undefined}
          rel={external ? 'noopener noreferrer' : undefined}
          className={itemClass}
          data-testid={`nav-${item.id}`}
        >
          <NavItemLabel item={item} depth={depth} />
          {external ? (
            <>
              <IconExternalLink size={14} aria-hidden className={classes.external} />
              <VisuallyHidden>{t('shell.opensInNewTab')}</VisuallyHidden>
            </>
          ) : null}
        </a>
      </li>
    );
  }

  const route = item.route ?? '/dashboard';
  return (
    <li>
      <Link
        to={route}
        className={itemClass}
        data-active={item.isActive || undefined}
        aria-current={item.isActive ? (pathname === route ? 'page' : 'true') : undefined}
        data-testid={`nav-${item.id}`}
        onClick={() => {
          onToggle(item.id);
        }}
      >
        <NavItemLabel item={item} depth={depth} />
      </Link>
    </li>
  );
}
