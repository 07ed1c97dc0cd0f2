import type { MenuItem } from '@berth/contracts';
import { NavItem } from './NavItem.tsx';
import classes from './Sidebar.module.css';

interface NavTreeProps {
  items: MenuItem[];
  onToggle: (id: string) => void;
}

/** The role's navigation tree (GET /api/menu). */
export function NavTree({ items, onToggle }: NavTreeProps) {
  return (
    <ul className={classes.list}>
      {items.map((item) => (
        <NavItem key={item.id} item={item} depth={0} onToggle={onToggle} />
      ))}
    </ul>
  );
}
