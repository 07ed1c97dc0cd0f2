import { Badge } from '@mantine/core';
import type { MenuItem } from '@berth/contracts';
import { MenuIcon } from './MenuIcon.tsx';
import { badgeColor, menuText } from './menuText.ts';
import classes from './Sidebar.module.css';

/** The label row of an item: icon, title, badge. */
export function NavItemLabel({ item, depth }: { item: MenuItem; depth: number }) {
  return (
    <>
      {item.icon ? (
        <MenuIcon name={item.icon} size={18} className={classes.icon} />
      ) : depth > 0 ? null : (
        <span className={classes.iconSpace} aria-hidden />
      )}
      <span className={classes.label}>{menuText(item.title)}</span>
      {item.badge ? (
        <Badge size="xs" variant="light" color={badgeColor(item.badge.class)} radius="sm" className={classes.badge}>
          {menuText(item.badge.label)}
        </Badge>
      ) : null}
    </>
  );
}
